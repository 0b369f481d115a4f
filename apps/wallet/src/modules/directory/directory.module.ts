import { Module } from '@nestjs/common';
import { DirectoryHandlers } from './directory.handlers.js';
import { DirectoryRepository } from './directory.repository.js';

/** Who the users are and how to mail them (read model of auth's accounts). */
@Module({
  providers: [DirectoryRepository, DirectoryHandlers],
  exports: [DirectoryRepository],
})
export class DirectoryModule {}
