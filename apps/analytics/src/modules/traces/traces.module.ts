import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { TracesController } from './traces.controller.js';
import { TracesService } from './traces.service.js';

/** Trace reads (docs/api.md § Analytics). */
@Module({
  imports: [StorageModule, ProjectsModule],
  controllers: [TracesController],
  providers: [TracesService],
})
export class TracesModule {}
