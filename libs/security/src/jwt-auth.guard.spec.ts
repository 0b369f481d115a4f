import { generateKeyPairSync } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { DomainError } from '@wp/http';
import { AGENT_ACCESS } from './agent-access.js';
import { JwtAuthGuard } from './jwt-auth.guard.js';
import { parsePublicKeys } from './jwt-keys.js';
import { principalFromClaims, type AccessTokenClaims, type Principal } from './principal.js';
import { RevocationList } from './revocation-list.js';
import { RevocationStore, type RevocationKind } from './stores/revocation.store.js';
import type { SecurityOptions } from './security.options.js';

/** A deny-list stand-in holding `kind:id` entries: what `RevocationList.isRevoked` asks. */
class FakeRevocationStore extends RevocationStore {
  readonly keys = new Set<string>();
  calls = 0;
  deny(kind: RevocationKind, id: string): Promise<void> {
    this.keys.add(`${kind}:${id}`);
    return Promise.resolve();
  }
  isDenied(jti: string, sid: string): Promise<boolean> {
    this.calls++;
    return Promise.resolve(this.keys.has(`jti:${jti}`) || this.keys.has(`sid:${sid}`));
  }
  restore(): Promise<void> {
    return Promise.resolve();
  }
  announce(): Promise<void> {
    return Promise.resolve();
  }
  subscribe(): Promise<() => Promise<void>> {
    return Promise.resolve(() => Promise.resolve());
  }
}

const agent: Principal = principalFromClaims({
  typ: 'agent',
  sub: '5b1c2a4e-6a47-4e8f-9d7c-0a1b2c3d4e5f',
  email: null,
  sid: 'agent-sid-epoch-0',
  jti: 'jti-1',
  app: 'app',
  client_id: 'app',
  iss: 'test',
  aud: 'test-api',
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 900,
  org: 7,
  prj: 70,
  scp: [],
  prm: ['projects:read'],
});

function contextFor(
  params: Record<string, string | undefined>,
  optedIn: boolean,
): { context: ExecutionContext; request: { user?: Principal } } {
  const handler = () => undefined;
  if (optedIn) Reflect.defineMetadata(AGENT_ACCESS, true, handler);
  class Controller {}
  const request = { headers: { authorization: 'Bearer aaa.bbb.ccc' }, params } as {
    headers: Record<string, string>;
    params: Record<string, string | undefined>;
    user?: Principal;
  };
  const context = {
    getHandler: () => handler,
    getClass: () => Controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

function guardWith(principal: Principal, confineAgents: boolean) {
  const store = new FakeRevocationStore();
  const options: SecurityOptions = {
    jwtPublicKeys: parsePublicKeys(
      generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .publicKey.export({ type: 'spki', format: 'pem' })
        .toString(),
    ),
    jwtIssuer: 'test',
    jwtAudience: 'test-api',
    accessTokenMaxLifetimeSeconds: 3600,
    adminAccessTokens: [],
    confineAgents,
  };
  const guard = new JwtAuthGuard(new Reflector(), new RevocationList(store), options);
  // Verification is AccessTokenVerifier's (access-token-verifier.spec.ts): stand it in here.
  (guard as unknown as { verify: () => Promise<Principal> }).verify = () =>
    Promise.resolve(principal);
  return { guard, store };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as DomainError;
    return { status: e.status, code: e.code };
  }
  throw new Error('expected a refusal');
}

describe('JwtAuthGuard', () => {
  it('refuses a token whose session (an agent pass epoch) is deny-listed, in one deny-list look-up', async () => {
    const { guard, store } = guardWith(agent, true);
    const { context } = contextFor({ organizationId: '7', projectId: '70' }, true);
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(store.calls).toBe(1);
    store.keys.add(`sid:${agent.sessionId}`);
    expect(await refusal(guard.canActivate(context))).toEqual({
      status: 401,
      code: 'TOKEN_REVOKED',
    });
    expect(store.calls).toBe(2);
  });

  it('lets an agent through an @AgentAccess route of its own organization and project', async () => {
    const { guard } = guardWith(agent, true);
    const { context, request } = contextFor({ organizationId: '7', projectId: '70' }, true);
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(request.user).toBe(agent);
  });

  it('answers an agent 403 AGENT_FORBIDDEN on a route that is not opened to agents', async () => {
    const { guard } = guardWith(agent, true);
    for (const params of [{}, { organizationId: '7' }, { organizationId: '7', projectId: '70' }]) {
      expect(await refusal(guard.canActivate(contextFor(params, false).context))).toEqual({
        status: 403,
        code: 'AGENT_FORBIDDEN',
      });
    }
  });

  it('answers an agent 404 when the path names another organization or project, opened or not', async () => {
    const { guard } = guardWith(agent, true);
    for (const optedIn of [true, false]) {
      for (const params of [
        { organizationId: '8' },
        { orgId: '8', projectId: '70' },
        { organizationId: '7', projectId: '71' },
      ]) {
        expect(await refusal(guard.canActivate(contextFor(params, optedIn).context))).toEqual({
          status: 404,
          code: 'NOT_FOUND',
        });
      }
    }
  });

  it('refuses an agent token without a project binding everywhere', async () => {
    const { guard } = guardWith({ ...agent, agent: undefined }, true);
    expect(await refusal(guard.canActivate(contextFor({}, true).context))).toEqual({
      status: 403,
      code: 'AGENT_FORBIDDEN',
    });
  });

  it('leaves agents alone in a service that does not confine them, and never confines users', async () => {
    const loose = guardWith(agent, false).guard;
    await expect(
      loose.canActivate(contextFor({ organizationId: '8' }, false).context),
    ).resolves.toBe(true);
    const user: Principal = { ...agent, type: 'user', agent: undefined };
    const strict = guardWith(user, true).guard;
    await expect(
      strict.canActivate(contextFor({ organizationId: '8' }, false).context),
    ).resolves.toBe(true);
  });

  it('keeps about one token lifetime of verified tokens, not every token it ever saw', async () => {
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const store = new FakeRevocationStore();
      const options: SecurityOptions = {
        jwtPublicKeys: [],
        jwtIssuer: 'test',
        jwtAudience: 'test-api',
        accessTokenMaxLifetimeSeconds: 3600,
        adminAccessTokens: [],
        confineAgents: false,
      };
      const guard = new JwtAuthGuard(new Reflector(), new RevocationList(store), options);
      // The signature check is AccessTokenVerifier's (access-token-verifier.spec.ts): stand it
      // in with claims that expire `lifetimeSeconds` from now, and keep the cache in play.
      const lifetimeSeconds = 60;
      const verifier = {
        verify: (token: string): Promise<AccessTokenClaims> => {
          const iat = Math.floor(Date.now() / 1000);
          return Promise.resolve({
            sub: 'user-1',
            jti: token,
            sid: `sid-${token}`,
            iat,
            exp: iat + lifetimeSeconds,
            iss: 'test',
            aud: 'test-api',
            client_id: 'app-1',
            typ: 'user',
            app: 'app-1',
            email: null,
          });
        },
      };
      (guard as unknown as { verifier: typeof verifier }).verifier = verifier;
      const present = async (token: string) => {
        const { context, request } = contextFor({}, false);
        (request as { headers: Record<string, string> }).headers.authorization = `Bearer ${token}`;
        await guard.canActivate(context);
      };
      for (let i = 0; i < 50; i++) await present(`aaa.bbb.old${i}`);
      clock.mockReturnValue(now + 61_000); // those 50 have expired
      await present('aaa.bbb.new');
      const verified = (guard as unknown as { verified: Map<string, unknown> }).verified;
      expect(verified.size).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });
});
