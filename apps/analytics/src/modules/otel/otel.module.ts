import { Module } from '@nestjs/common';
import { IngestionModule } from '../ingestion/ingestion.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { OtelController } from './otel.controller.js';
import { OtelService } from './otel.service.js';

/** OTLP/HTTP trace ingestion (JSON and protobuf). */
@Module({
  imports: [IngestionModule, ProjectsModule],
  controllers: [OtelController],
  providers: [OtelService],
})
export class OtelModule {}
