import { Module } from '@nestjs/common';
import { SecurityPolicyController } from './security-policy.controller.js';
import { SecurityPolicyRepository } from './security-policy.repository.js';
import { SecurityPolicyService } from './security-policy.service.js';

/** The organization security policy: requiring two-factor of members. */
@Module({
  controllers: [SecurityPolicyController],
  providers: [SecurityPolicyRepository, SecurityPolicyService],
})
export class SecurityPolicyModule {}
