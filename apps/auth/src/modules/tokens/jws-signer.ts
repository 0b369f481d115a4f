import { sign, type KeyObject } from 'node:crypto';

/**
 * ES256 JWS Compact Serialization (RFC 7515 § 7.1; ES256 per RFC 7518 § 3.4: ECDSA P-256 with
 * SHA-256, the signature as the 64-byte R‖S, which `dsaEncoding: 'ieee-p1363'` gives) with
 * Node's one-shot synchronous `crypto.sign`.
 *
 * Why not jose for signing (it still verifies everywhere): jose 6 signs through WebCrypto, a job
 * on libuv's pool per token. On a refresh that hand-off cost about 0.1 ms of CPU (auth's pool
 * threads 0.01 → 0.11 ms per refresh) and 10 % of refresh throughput on 2 cores
 * (docs/decisions.md § Security). Signing is the easy half of JWS: no header is read, no
 * algorithm chosen from input; the header is fixed at construction.
 */
export class Es256JwsSigner {
  private readonly encodedHeader: string;

  /**
   * @param key the P-256 private key
   * @param header the protected header (`alg` is set to `ES256` here, whatever was passed)
   * @throws Error when the key is not a P-256 private key
   */
  constructor(
    private readonly key: KeyObject,
    header: Record<string, string>,
  ) {
    if (key.type !== 'private' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('ES256 needs a P-256 (prime256v1) private key');
    }
    this.encodedHeader = base64url(JSON.stringify({ ...header, alg: 'ES256' }));
  }

  /** `header.payload.signature`, each part base64url without padding. */
  sign(payload: object): string {
    const input = `${this.encodedHeader}.${base64url(JSON.stringify(payload))}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: this.key,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
