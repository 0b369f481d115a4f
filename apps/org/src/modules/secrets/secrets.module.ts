import { Global, Module } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';

/**
 * The service's `AesGcmEnvelope` (AES-256-GCM,
 * docs/architecture.md § Decisions where the contract is silent), from `SECRETS_ENCRYPTION_KEY`:
 * seals project secret keys and LLM provider keys at rest with the key version stored, so the
 * master key can rotate (`v2:<new>,v1:<old>`).
 */
@Global()
@Module({
  providers: [
    {
      provide: AesGcmEnvelope,
      inject: [ORG_CONFIG],
      useFactory: (config: OrgConfig) => AesGcmEnvelope.fromConfig(config.SECRETS_ENCRYPTION_KEY),
    },
  ],
  exports: [AesGcmEnvelope],
})
export class SecretsModule {}
