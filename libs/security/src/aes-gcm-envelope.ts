import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.js';

/**
 * Authenticated encryption of secrets at rest with AES-256-GCM (NIST SP 800-38D, through Node's
 * `crypto` `aes-256-gcm`): a random 96-bit IV per value, a 128-bit authentication tag, and the
 * key version stored with the ciphertext, so the master key (`SECRETS_ENCRYPTION_KEY`) can
 * rotate: new writes use the current key, older values still decrypt with their version's key.
 * (Not NaCl's `secretbox`, which is XSalsa20-Poly1305.)
 *
 * Format: `v<version>.<iv>.<tag>.<ciphertext>` (base64url parts), as docs/org.md § Key pairs and
 * LLM keys describes.
 *
 * Each key is imported once as a `KeyObject`: `createCipheriv` with a raw `Buffer` imports it anew
 * on every call, which took 33 µs of CPU per 1 KB seal against 13 µs (Node 24; docs/auth.md
 * § Performance).
 */
export class AesGcmEnvelope {
  private readonly keys = new Map<number, KeyObject>();

  /**
   * @param keys version → 32-byte key; `currentVersion` encrypts.
   * @throws when a key is not 32 bytes or the current version has no key.
   */
  constructor(
    keys: Record<number, Buffer>,
    private readonly currentVersion: number,
  ) {
    for (const [version, key] of Object.entries(keys)) {
      if (key.length !== 32) throw new Error(`encryption key v${version} must be 32 bytes`);
      this.keys.set(Number(version), createSecretKey(key));
    }
    if (!this.keys.has(currentVersion)) throw new Error(`no encryption key v${currentVersion}`);
  }

  /** Parses `SECRETS_ENCRYPTION_KEY` (`base64` or `v2:base64,v1:base64`; first is current). */
  static fromConfig(value: string): AesGcmEnvelope {
    const keys: Record<number, Buffer> = {};
    let current: number | undefined;
    for (const part of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^v(\d+):(.+)$/.exec(part);
      const version = match ? Number(match[1]) : 1;
      keys[version] = Buffer.from(match ? match[2] : part, 'base64');
      current ??= version;
    }
    return new AesGcmEnvelope(keys, current ?? 1);
  }

  /** Seals `plaintext` (UTF-8) with the current key; returns the format above. */
  encrypt(plaintext: string): string {
    const key = this.keys.get(this.currentVersion)!;
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [`v${this.currentVersion}`, iv, cipher.getAuthTag(), ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /**
   * The plaintext of a sealed value.
   * @throws when the version is unknown or the ciphertext was tampered with (GCM tag mismatch).
   */
  decrypt(sealed: string): string {
    const [v, iv, tag, ciphertext] = sealed.split('.');
    const key = this.keys.get(Number(v?.slice(1)));
    if (!key || !iv || !tag || ciphertext === undefined) throw new Error('unreadable secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  /** The key version a sealed value was written with. */
  static versionOf(sealed: string): number {
    return Number(sealed.slice(1, sealed.indexOf('.')));
  }
}
