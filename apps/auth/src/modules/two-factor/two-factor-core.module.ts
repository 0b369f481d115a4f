import { Module } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { MfaChallenges } from './mfa-challenges.js';
import { MfaChallengesRepository } from './mfa-challenges.repository.js';
import { SecondFactorVerifier } from './second-factor.verifier.js';
import { TwoFactorState } from './two-factor-state.js';
import { TwoFactorRepository } from './two-factor.repository.js';

/**
 * What login and the two-factor routes share, without depending on sessions: the stored
 * authenticators and recovery codes, login challenges, the second-factor check, the account
 * flag and its event.
 */
@Module({
  providers: [
    TwoFactorRepository,
    MfaChallengesRepository,
    MfaChallenges,
    SecondFactorVerifier,
    TwoFactorState,
    {
      provide: AesGcmEnvelope,
      inject: [AUTH_CONFIG],
      useFactory: (config: AuthConfig) => AesGcmEnvelope.fromConfig(config.SECRETS_ENCRYPTION_KEY),
    },
  ],
  exports: [
    TwoFactorRepository,
    MfaChallengesRepository,
    MfaChallenges,
    SecondFactorVerifier,
    TwoFactorState,
    AesGcmEnvelope,
  ],
})
export class TwoFactorCoreModule {}
