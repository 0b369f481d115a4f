import { Module } from '@nestjs/common';
import { AssetsRepository } from './assets.repository.js';
import { AssetsService } from './assets.service.js';

@Module({ providers: [AssetsRepository, AssetsService], exports: [AssetsService] })
export class AssetsModule {}
