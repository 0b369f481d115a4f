import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '@wp/persistence';

const JTI = (jti: string) => `revoked:jti:${jti}`;
const SID = (sid: string) => `revoked:sid:${sid}`;

/**
 * The access token deny-list (ARCHITECTURE § 3 "Revocation"): a revoked token id (`jti`) or
 * session (`sid`, a refresh token family) is kept in Redis until the token would have expired
 * anyway. Every service checks it on every authenticated request, so a logout takes effect
 * everywhere at once.
 */
@Injectable()
export class RevocationList {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** Revokes one access token until `expiresAt` (epoch seconds). */
  async revokeToken(jti: string, expiresAt: number): Promise<void> {
    await this.redis.set(JTI(jti), '1', 'EX', ttl(expiresAt));
  }

  /** Revokes every access token of a session for `ttlSeconds` (the access token lifetime). */
  async revokeSession(sid: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(SID(sid), '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async isRevoked(jti: string, sid: string): Promise<boolean> {
    return (await this.redis.exists(JTI(jti), SID(sid))) > 0;
  }
}

function ttl(expiresAt: number): number {
  return Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
}
