import { Global, Module } from '@nestjs/common';
import { AccessRepository } from './access.repository.js';
import { AccessService } from './access.service.js';

/** Organization and project access checks, shared by every feature. */
@Global()
@Module({ providers: [AccessRepository, AccessService], exports: [AccessService] })
export class AccessModule {}
