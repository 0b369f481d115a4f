import { Module } from '@nestjs/common';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { SsoCodesModule } from '../federation/sso-codes.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { PasskeyLoginController } from './passkey-login.controller.js';
import { PasskeyLoginService } from './passkey-login.service.js';
import { PasskeyRegistrationService } from './passkey-registration.service.js';
import { PasskeysController } from './passkeys.controller.js';
import { PasskeysRepository } from './passkeys.repository.js';
import { PasskeysService } from './passkeys.service.js';
import { RelyingParties } from './relying-party.js';
import { WebauthnChallenges } from './webauthn-challenges.repository.js';

/** Passkeys: registration and management under `/users/me/passkeys`, sign-in under `/oauth`. */
@Module({
  imports: [UsersRepositoryModule, SessionsModule, RateLimitsModule, SsoCodesModule],
  controllers: [PasskeysController, PasskeyLoginController],
  providers: [
    PasskeysRepository,
    WebauthnChallenges,
    RelyingParties,
    PasskeyRegistrationService,
    PasskeysService,
    PasskeyLoginService,
  ],
})
export class PasskeysModule {}
