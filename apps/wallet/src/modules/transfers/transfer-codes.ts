import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export type CodePhase = 'sender' | 'recipient';

/**
 * Transfer-request verification codes (docs/architecture.md § Transfer requests): 6 random digits,
 * stored only as HMAC-SHA256(server secret, transfer id, phase, code). A plain hash of six
 * digits falls to a million guesses; without the secret the stored value says nothing. Binding
 * the transfer id and phase means a code is good for one step of one transfer only.
 */
export class TransferCodes {
  private readonly key: Buffer;

  /** @param secret `WALLET_TRANSFER_CODE_SECRET`; undefined: a random per-process key. */
  constructor(secret: string | undefined) {
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  /** A fresh code: 6 digits, uniformly random, leading zeros kept. */
  generate(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  digest(transferId: string, phase: CodePhase, code: string): string {
    return createHmac('sha256', this.key)
      .update(`${transferId}\u0000${phase}\u0000${code}`)
      .digest('base64url');
  }

  /** Constant-time check of a code against the stored digest. */
  verify(stored: string | null, transferId: string, phase: CodePhase, code: string): boolean {
    if (stored === null) return false;
    const expected = Buffer.from(stored, 'utf8');
    const actual = Buffer.from(this.digest(transferId, phase, code), 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
