import { Module } from '@nestjs/common';
import { SentinelPassEvents } from './sentinel-pass-events.js';
import { SentinelPassesController } from './sentinel-passes.controller.js';
import { SentinelPassesRepository } from './sentinel-passes.repository.js';
import { SentinelPassesService } from './sentinel-passes.service.js';
import { SentinelUsageHandlers } from './sentinel-usage.handlers.js';

/** Sentinel Pass CRUD, rotation, revocation (docs/org.md § Sentinel Pass) and usage counting. */
@Module({
  controllers: [SentinelPassesController],
  providers: [
    SentinelPassesRepository,
    SentinelPassEvents,
    SentinelPassesService,
    SentinelUsageHandlers,
  ],
  exports: [SentinelPassesRepository, SentinelPassEvents],
})
export class SentinelPassesModule {}
