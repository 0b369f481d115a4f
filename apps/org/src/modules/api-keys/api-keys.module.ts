import { Module } from '@nestjs/common';
import { ProjectCredentialsModule } from '../project-credentials/project-credentials.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { ProjectKeys } from './project-keys.js';

@Module({
  imports: [ProjectCredentialsModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ProjectKeys],
  exports: [ProjectKeys, ApiKeysRepository],
})
export class ApiKeysModule {}
