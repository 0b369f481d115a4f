import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { LlmKeysModule } from '../llm-keys/llm-keys.module.js';
import { SentinelPassesModule } from '../sentinel-passes/sentinel-passes.module.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsHandlers } from './projects.handlers.js';
import { ProjectsService } from './projects.service.js';

@Module({
  imports: [ApiKeysModule, LlmKeysModule, SentinelPassesModule],
  controllers: [ProjectsController],
  providers: [ProjectsService, ProjectsHandlers],
  exports: [ProjectsService],
})
export class ProjectsModule {}
