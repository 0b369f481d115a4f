import { randomBytes } from 'node:crypto';
import { AesGcmEnvelope } from './aes-gcm-envelope.js';

describe('AesGcmEnvelope (AES-256-GCM envelope with key versions)', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);

  it('round-trips and never stores the plaintext', () => {
    const box = new AesGcmEnvelope({ 1: k1 }, 1);
    const sealed = box.encrypt('sk_live_secret');
    expect(sealed).not.toContain('sk_live_secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.decrypt(sealed)).toBe('sk_live_secret');
  });

  it('uses a fresh IV per encryption', () => {
    const box = new AesGcmEnvelope({ 1: k1 }, 1);
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('decrypts old versions after the master key rotates', () => {
    const old = new AesGcmEnvelope({ 1: k1 }, 1).encrypt('before rotation');
    const rotated = AesGcmEnvelope.fromConfig(
      `v2:${k2.toString('base64')},v1:${k1.toString('base64')}`,
    );
    expect(rotated.decrypt(old)).toBe('before rotation');
    expect(AesGcmEnvelope.versionOf(rotated.encrypt('after'))).toBe(2);
  });

  it('refuses tampered ciphertext', () => {
    const box = new AesGcmEnvelope({ 1: k1 }, 1);
    const sealed = box.encrypt('x');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.decrypt(tampered)).toThrow();
  });

  it('imports its keys once: the buffers given are not used afterwards', () => {
    const key = Buffer.from(k1);
    const box = new AesGcmEnvelope({ 1: key }, 1);
    const sealed = box.encrypt('kept');
    key.fill(0);
    expect(box.decrypt(sealed)).toBe('kept');
    expect(new AesGcmEnvelope({ 1: k1 }, 1).decrypt(box.encrypt('same key'))).toBe('same key');
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => new AesGcmEnvelope({ 1: randomBytes(16) }, 1)).toThrow('32 bytes');
  });
});
