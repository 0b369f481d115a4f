import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jwkThumbprint, parsePublicKeys } from '@wp/security';
import { PlatformStack } from '../support/stack.js';

const RESOURCE_SERVER = join(__dirname, '..', 'support', 'jose-resource-server.mjs');

function header(token: string): { kid?: string } {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
}

/** What a `jose` resource server with a remote JWKS says of each token. */
async function joseVerify(jwksUrl: string, tokens: string[]): Promise<{ ok: boolean }[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    RESOURCE_SERVER,
    jwksUrl,
    'workspace-platform',
    'workspace-platform-api',
    ...tokens,
  ]);
  return JSON.parse(stdout);
}

/**
 * Signing-key rotation while sessions are active (docs/operations.md § Signing-key rotation):
 * auth restarts signing with key B and every service verifies with A and B; access tokens signed
 * with A keep working until they expire, new ones carry B's `kid`, the JWKS lists both.
 */
describe('signing-key rotation with active sessions', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function login(): Promise<string> {
    const res = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: 'rotate@example.com', password: 'a long password' },
    });
    expect(res.status).toBe(200);
    return res.body.data.attributes.accessToken as string;
  }

  it('keeps old tokens valid, signs new ones with the new key and publishes both', async () => {
    await stack.request('POST', '/v1/api/users', {
      body: { username: 'rotate@example.com', password: 'a long password' },
    });
    const keyA = stack.env.keys.jwtPublicKey;
    const kidA = parsePublicKeys(keyA)[0].kid;
    const tokenA = await login();
    expect(header(tokenA).kid).toBe(kidA);

    const b = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyB = b.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const kidB = jwkThumbprint(b.publicKey);
    stack.env.env['JWT_PUBLIC_KEY'] = `${keyB}${keyA}`;
    stack.env.env['JWT_PRIVATE_KEY'] = b.privateKey
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    for (const service of ['auth', 'org', 'wallet', 'analytics'] as const) {
      await stack.stopService(service);
      await stack.startService(service);
    }

    const withOld = await stack.request('GET', '/v1/api/organizations', { token: tokenA });
    expect(withOld.status).toBe(200);
    const tokenB = await login();
    expect(header(tokenB).kid).toBe(kidB);
    const withNew = await stack.request('GET', '/v1/api/organizations', { token: tokenB });
    expect(withNew.status).toBe(200);

    const jwksUrl = `http://127.0.0.1:${stack.ports.get('auth')}/v1/api/oauth/jwks.json`;
    const jwks = (await (await fetch(jwksUrl)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual([kidB, kidA]);
    expect(await joseVerify(jwksUrl, [tokenA, tokenB])).toEqual([
      expect.objectContaining({ ok: true, kid: kidA }),
      expect.objectContaining({ ok: true, kid: kidB }),
    ]);

    // After the previous key is retired, its tokens are refused everywhere.
    stack.env.env['JWT_PUBLIC_KEY'] = keyB;
    await stack.stopService('org');
    await stack.startService('org');
    const retired = await stack.request('GET', '/v1/api/organizations', { token: tokenA });
    expect(retired.status).toBe(401);
  });
});
