import { Module } from '@nestjs/common';
import { userDirectoryProviders } from '@wp/user-directory';
import { DirectoryTwoFactorHandlers } from './directory.handlers.js';
import { DirectoryRepository } from './directory.repository.js';

@Module({
  providers: [...userDirectoryProviders(DirectoryRepository), DirectoryTwoFactorHandlers],
  exports: [DirectoryRepository],
})
export class DirectoryModule {}
