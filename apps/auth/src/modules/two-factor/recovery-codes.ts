import { createHmac, randomInt } from 'node:crypto';

/** Codes per set (shown once; each works once). */
export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without look-alikes (0/o, 1/l/i): 31 symbols. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/**
 * A new set of recovery codes, `xxxxx-xxxxx` (10 symbols of 31, about 49.5 bits each: far
 * beyond what the per-username login limit lets anyone try), drawn with the CSPRNG.
 */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    let raw = '';
    for (let i = 0; i < LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    codes.add(`${raw.slice(0, 5)}-${raw.slice(5)}`);
  }
  return [...codes];
}

/**
 * The canonical form of a typed recovery code: case, spaces and hyphens do not matter.
 * @returns null when it cannot be a recovery code (wrong length or symbols)
 */
export function normalizeRecoveryCode(input: string): string | null {
  const raw = input.toLowerCase().replace(/[\s-]/g, '');
  if (raw.length !== LENGTH || ![...raw].every((c) => ALPHABET.includes(c))) return null;
  return raw;
}

/**
 * What is stored of a code: HMAC-SHA256(`AUTH_CODE_SECRET`, `userId:code`) in hex, as for
 * activation codes — a database copy alone does not allow trying codes offline.
 * @param code normalized ({@link normalizeRecoveryCode})
 */
export function hashRecoveryCode(secret: string, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`${userId}:${code}`, 'utf8').digest('hex');
}
