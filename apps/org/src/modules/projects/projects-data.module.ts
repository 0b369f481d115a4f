import { Global, Module } from '@nestjs/common';
import { ProjectsRepository } from './projects.repository.js';

/**
 * The project table's repository, global: project rows carry counters and versions that
 * several features keep (members, keys, wallets), and they must not import each other's
 * modules in a cycle to reach it.
 */
@Global()
@Module({ providers: [ProjectsRepository], exports: [ProjectsRepository] })
export class ProjectsDataModule {}
