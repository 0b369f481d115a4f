import { Global, Module } from '@nestjs/common';
import { UserLookup } from './user-lookup.js';

@Global()
@Module({ providers: [UserLookup], exports: [UserLookup] })
export class IdentityModule {}
