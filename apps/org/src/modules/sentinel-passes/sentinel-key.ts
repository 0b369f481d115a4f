import { randomBytes } from 'node:crypto';
import { hashSentinelKey } from '@wp/security';

/** Prefix of every Sentinel Pass key (recognisable in secret scanners and support tickets). */
export const SENTINEL_KEY_PREFIX = 'sp_';

/**
 * A new Sentinel Pass key: `sp_` + base64url of 32 random bytes (256 bits, 46 characters, only
 * `[A-Za-z0-9_-]`, so it travels in a form body or JSON untouched) and its hash as auth compares
 * it (`hashSentinelKey`, SHA-256 hex). The plaintext is returned once and never stored.
 */
export function newSentinelKey(): { key: string; keyHash: string } {
  const key = `${SENTINEL_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, keyHash: hashSentinelKey(key) };
}
