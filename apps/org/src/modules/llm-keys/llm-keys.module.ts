import { Module } from '@nestjs/common';
import { ProjectCredentialsModule } from '../project-credentials/project-credentials.module.js';
import { LlmKeysController } from './llm-keys.controller.js';
import { LlmKeysRepository } from './llm-keys.repository.js';
import { LlmKeysService } from './llm-keys.service.js';

@Module({
  imports: [ProjectCredentialsModule],
  controllers: [LlmKeysController],
  providers: [LlmKeysRepository, LlmKeysService],
  exports: [LlmKeysRepository],
})
export class LlmKeysModule {}
