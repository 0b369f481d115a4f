import { Module } from '@nestjs/common';
import { PermissionFreshness } from '@wp/messaging';
import { TokenService } from '../tokens/token.service.js';
import { ActivityController } from './activity.controller.js';
import { ActivityService } from './activity.service.js';
import { AgentTokenService } from './agent-token.service.js';
import { SentinelEventsHandlers } from './sentinel-events.handlers.js';
import { SentinelPassRepository } from './sentinel-pass.repository.js';

/**
 * Sentinel Pass on the auth side (docs/org.md § Sentinel Pass): credential and membership read
 * models, agent token exchange (used by `POST /oauth/token` of the sessions module, which imports
 * this one), activity storage and the activity endpoints.
 */
@Module({
  controllers: [ActivityController],
  providers: [
    TokenService,
    SentinelPassRepository,
    SentinelEventsHandlers,
    AgentTokenService,
    ActivityService,
    PermissionFreshness,
  ],
  exports: [AgentTokenService],
})
export class SentinelModule {}
