import { Module } from '@nestjs/common';
import { PricingModule } from '../pricing/pricing.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { IngestionController } from './ingestion.controller.js';
import { IngestionService } from './ingestion.service.js';
import { IngestionWriter } from './ingestion-writer.js';

/** Langfuse batch ingestion and the group-committing writer (shared with OTLP). */
@Module({
  imports: [StorageModule, PricingModule, ProjectsModule],
  controllers: [IngestionController],
  providers: [IngestionService, IngestionWriter],
  exports: [IngestionWriter],
})
export class IngestionModule {}
