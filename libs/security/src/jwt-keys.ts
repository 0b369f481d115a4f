import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/** One verification key of access tokens and its key id. */
export interface JwtVerificationKey {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url): the `kid` of tokens it verifies. */
  kid: string;
  key: KeyObject;
}

/**
 * `JWT_PUBLIC_KEY` → its keys: one or several PEM `PUBLIC KEY` blocks (P-256), newest first by
 * convention (docs/operations.md § Signing-key rotation). Throws when there is none or one is not
 * an EC P-256 key.
 */
export function parsePublicKeys(pem: string): JwtVerificationKey[] {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error('JWT_PUBLIC_KEY: expected PEM PUBLIC KEY block(s)');
  return blocks.map((block) => {
    const key = createPublicKey(block);
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('JWT_PUBLIC_KEY: every key must be EC P-256 (ES256)');
    }
    return { kid: jwkThumbprint(key), key };
  });
}

/** RFC 7638 § 3 thumbprint of an EC public key (or of a private key's public half). */
export function jwkThumbprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const { crv, kty, x, y } = publicKey.export({ format: 'jwk' });
  // Required members only, lexicographic order, no whitespace (RFC 7638 § 3.2).
  const canonical = JSON.stringify({ crv, kty, x, y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** The JWKS (RFC 7517) of the keys: `kid`, `alg: ES256`, `use: sig` on each, order kept. */
export function publicJwks(keys: JwtVerificationKey[]): { keys: JsonWebKey[] } {
  return {
    keys: keys.map(({ kid, key }) => ({
      ...key.export({ format: 'jwk' }),
      kid,
      alg: 'ES256',
      use: 'sig',
    })),
  };
}
