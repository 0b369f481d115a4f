import { Module } from '@nestjs/common';
import { DirectoryHandlers } from './directory.handlers.js';
import { DirectoryRepository } from './directory.repository.js';

@Module({ providers: [DirectoryRepository, DirectoryHandlers], exports: [DirectoryRepository] })
export class DirectoryModule {}
