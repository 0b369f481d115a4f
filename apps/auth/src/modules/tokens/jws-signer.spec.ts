import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, jwtVerify } from 'jose';
import { Es256JwsSigner } from './jws-signer';

describe('Es256JwsSigner', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('signs a compact JWS that jose verifies as ES256, with the header it was given', async () => {
    const signer = new Es256JwsSigner(privateKey, { typ: 'at+jwt', kid: 'key-1' });
    const token = signer.sign({ sub: 'user-1', iss: 'https://issuer.test', exp: 4_000_000_000 });

    const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer: 'https://issuer.test',
    });
    expect(payload.sub).toBe('user-1');
    expect(protectedHeader).toEqual({ typ: 'at+jwt', kid: 'key-1', alg: 'ES256' });
  });

  it('keeps alg ES256 even when the header says otherwise', () => {
    const token = new Es256JwsSigner(privateKey, { alg: 'none' }).sign({});
    expect(decodeProtectedHeader(token).alg).toBe('ES256');
  });

  it('signs what it is given, byte for byte (a changed payload does not verify)', async () => {
    const token = new Es256JwsSigner(privateKey, {}).sign({ name: 'Zoë' });
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from('{"name":"Zoe"}').toString('base64url')}.${signature}`;
    await expect(compactVerify(forged, publicKey)).rejects.toThrow();
    const { payload } = await compactVerify(token, publicKey);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ name: 'Zoë' });
  });

  it('refuses a key that cannot make ES256 signatures', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    expect(() => new Es256JwsSigner(other, {})).toThrow(/P-256/);
    expect(() => new Es256JwsSigner(publicKey, {})).toThrow(/P-256/);
  });
});
