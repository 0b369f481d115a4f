import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/** Daily metrics (docs/api.md § Analytics). */
@Module({
  imports: [StorageModule, ProjectsModule],
  controllers: [MetricsController],
  providers: [MetricsService],
})
export class MetricsModule {}
