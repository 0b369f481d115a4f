import { createHash } from 'node:crypto';

/**
 * The `sid` of agent tokens: a UUID derived from the pass id and its credential epoch, so that
 * deny-listing it (`RevocationList.revokeSession`) refuses, in every service, every token issued
 * before the key was rotated or the pass revoked or deleted, while tokens of the next epoch work.
 */
export function agentSessionId(passId: string, epoch: number): string {
  const h = createHash('sha256').update(`sentinel-pass:${passId}:${epoch}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
