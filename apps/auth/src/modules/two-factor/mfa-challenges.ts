import { type PeriodicJob, periodicJobs } from '@wp/observability';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { MfaChallengesRepository, type LiveChallenge } from './mfa-challenges.repository.js';

const PURGE_INTERVAL_MS = 60_000;

/** SHA-256 hex of a challenge token: what the database stores. */
export function hashChallengeToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Login challenges of the second step (docs/auth.md § Two-factor login): a token `mfa_` + 256
 * random bits (base64url, within the token character rule), stored as SHA-256, living
 * `MFA_CHALLENGE_TTL_SECONDS`, bound to the user and the client application of the login.
 * Expired challenges are deleted every minute.
 */
@Injectable()
export class MfaChallenges implements OnApplicationBootstrap, OnApplicationShutdown {
  private job?: PeriodicJob;

  constructor(
    private readonly repository: MfaChallengesRepository,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every('auth.mfa-challenge-purge', PURGE_INTERVAL_MS, () =>
      this.repository.purge(),
    );
  }

  onApplicationShutdown(): Promise<void> | undefined {
    return this.job?.stop();
  }

  /** Issues a challenge. @returns its token (shown once) and lifetime in seconds */
  async issue(userId: string, appId: string): Promise<{ token: string; expiresIn: number }> {
    const token = `mfa_${randomBytes(32).toString('base64url')}`;
    const expiresIn = this.config.MFA_CHALLENGE_TTL_SECONDS;
    await this.repository.insert({
      id: randomUUID(),
      tokenHash: hashChallengeToken(token),
      userId,
      appId,
      expiresAt: new Date(Date.now() + expiresIn * 1000),
    });
    return { token, expiresIn };
  }

  /** The live challenge of a token, or null. */
  find(token: string): Promise<LiveChallenge | null> {
    return this.repository.findLive(hashChallengeToken(token));
  }
}
