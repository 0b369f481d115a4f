import { Module } from '@nestjs/common';
import { userDirectoryProviders } from '@wp/user-directory';
import { DirectoryRepository } from './directory.repository.js';

/** Who the users are and how to mail them (read model of auth's accounts, @wp/user-directory). */
@Module({
  providers: userDirectoryProviders(DirectoryRepository),
  exports: [DirectoryRepository],
})
export class DirectoryModule {}
