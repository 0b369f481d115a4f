import { Module } from '@nestjs/common';
import { UsersRepository } from './users.repository.js';

/** The accounts table, for every feature that reads or writes users. */
@Module({ providers: [UsersRepository], exports: [UsersRepository] })
export class UsersRepositoryModule {}
