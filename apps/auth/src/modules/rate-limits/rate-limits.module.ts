import { Module } from '@nestjs/common';
import { RateLimits } from './rate-limits.service.js';

@Module({ providers: [RateLimits], exports: [RateLimits] })
export class RateLimitsModule {}
