import { randomBytes } from 'node:crypto';
import { AesGcmEnvelope } from '@wp/security';
import type { AuthConfig } from '../../config/auth.config.js';
import { RefreshHints } from './refresh-hints.js';
import { decideReplay } from './refresh-replay.js';
import { RefreshService } from './refresh.service.js';
import { RefreshTokenInvalidError, RefreshTokenReusedError } from './sessions.errors.js';
import type {
  FamilyReplayState,
  PresentedRefreshToken,
  SessionsRepository,
} from './sessions.repository.js';
import type { SessionsService } from './sessions.service.js';
import type { TokenService } from '../tokens/token.service.js';

const USER: PresentedRefreshToken['user'] = {
  id: 'u1',
  email: 'ada@example.com',
  phone: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  status: 'active',
};

/**
 * The refresh token families as SessionsRepository keeps them in PostgreSQL: every token ever
 * issued with its generation, the current generation, the sealed answer of the last rotation and
 * when it happened. `rotate` is the conditional statement: it wins only for the current token.
 */
class FakeFamilies {
  now = 1_000_000;
  private readonly families = new Map<
    string,
    { generation: number; live: boolean; rotatedAt: number; sealed: string | null }
  >();
  private readonly tokens = new Map<string, { familyId: string; generation: number }>();
  user = { ...USER };

  open(familyId: string, tokenHash: string): void {
    this.families.set(familyId, { generation: 0, live: true, rotatedAt: 0, sealed: null });
    this.tokens.set(tokenHash, { familyId, generation: 0 });
  }

  end(familyId: string): void {
    const family = this.families.get(familyId);
    if (family) family.live = false;
  }

  /** What SessionsRepository answers (asynchronously there, synchronously here). */
  private readonly sync = {
    findByTokenHash: (hash: string): PresentedRefreshToken | null => {
      const token = this.tokens.get(hash);
      const family = token && this.families.get(token.familyId);
      if (!token || !family) return null;
      return {
        familyId: token.familyId,
        appId: 'app',
        tokenGeneration: token.generation,
        familyGeneration: family.generation,
        user: this.user,
      };
    },
    rotate: (r: {
      familyId: string;
      currentHash: string;
      newHash: string;
      sealedResponse: string | null;
    }): boolean => {
      const family = this.families.get(r.familyId);
      const token = this.tokens.get(r.currentHash);
      if (!family?.live || this.user.status !== 'active') return false;
      if (token?.familyId !== r.familyId || token.generation !== family.generation) return false;
      family.generation += 1;
      family.rotatedAt = this.now;
      family.sealed = r.sealedResponse;
      this.tokens.set(r.newHash, { familyId: r.familyId, generation: family.generation });
      return true;
    },
    replayState: (familyId: string, graceSeconds: number): FamilyReplayState | null => {
      const family = this.families.get(familyId);
      if (!family) return null;
      const inGrace = this.now - family.rotatedAt < graceSeconds * 1000;
      return {
        generation: family.generation,
        live: family.live,
        inGrace,
        graceResponse: inGrace ? family.sealed : null,
      };
    },
  };

  readonly repository = {
    findByTokenHash: (hash: string) => Promise.resolve(this.sync.findByTokenHash(hash)),
    rotate: (r: Parameters<FakeFamilies['sync']['rotate']>[0]) =>
      Promise.resolve(this.sync.rotate(r)),
    replayState: (familyId: string, graceSeconds: number) =>
      Promise.resolve(this.sync.replayState(familyId, graceSeconds)),
  };
}

function setup(graceSeconds = 20) {
  const families = new FakeFamilies();
  const ended: [string, string][] = [];
  let issued = 0;
  const tokens = {
    accessTokenTtl: 900,
    newRefreshToken: () => `rt_${++issued}`,
    hashRefreshToken: (token: string) => `hash(${token})`,
    signAccessToken: () => Promise.resolve({ token: `at_${issued}`, claims: {} }),
  };
  const lifecycle = {
    end: (familyId: string, reason: string) => {
      ended.push([familyId, reason]);
      families.end(familyId);
      return Promise.resolve();
    },
  };
  const service = new RefreshService(
    families.repository as unknown as SessionsRepository,
    lifecycle as unknown as SessionsService,
    tokens as unknown as TokenService,
    new AesGcmEnvelope({ 1: randomBytes(32) }, 1),
    new RefreshHints(),
    { REFRESH_GRACE_SECONDS: graceSeconds } as AuthConfig,
  );
  families.open('f1', 'hash(rt_0)');
  const client = { userAgent: null, clientAddress: null };
  const refresh = async (token: string) => {
    const session = await service.refresh(token, client);
    return session.data.attributes;
  };
  return { families, ended, refresh };
}

describe('RefreshService (refresh token rotation)', () => {
  it('rotates the current token into a new pair, and the new one rotates next', async () => {
    const { refresh } = setup();
    const first = await refresh('rt_0');
    expect(first.refreshToken).toBe('rt_1');
    const second = await refresh(first.refreshToken);
    expect(second.refreshToken).toBe('rt_2');
  });

  it('answers a replay of the token rotated last, within the grace window, with the same pair', async () => {
    const { families, ended, refresh } = setup(20);
    const winner = await refresh('rt_0');
    families.now += 19_000;
    expect(await refresh('rt_0')).toEqual(winner);
    expect(ended).toEqual([]);
    // The pair handed out twice is still the current one.
    expect((await refresh(winner.refreshToken)).refreshToken).toBe('rt_2');
  });

  it('treats the previous token after the window as re-use: the family ends, every token dies', async () => {
    const { families, ended, refresh } = setup(20);
    const current = await refresh('rt_0');
    families.now += 20_000;
    await expect(refresh('rt_0')).rejects.toThrow(RefreshTokenReusedError);
    expect(ended).toEqual([['f1', 'reuse_detected']]);
    await expect(refresh(current.refreshToken)).rejects.toThrow(RefreshTokenInvalidError);
  });

  it('treats a token two rotations old as re-use even inside the window', async () => {
    const { ended, refresh } = setup(20);
    const one = await refresh('rt_0');
    await refresh(one.refreshToken);
    await expect(refresh('rt_0')).rejects.toThrow(RefreshTokenReusedError);
    expect(ended).toEqual([['f1', 'reuse_detected']]);
  });

  it('has no grace answer when the window is 0 s: a second use is re-use', async () => {
    const { ended, refresh } = setup(0);
    await refresh('rt_0');
    await expect(refresh('rt_0')).rejects.toThrow(RefreshTokenReusedError);
    expect(ended).toHaveLength(1);
  });

  it('refuses an unknown token and a token of an inactive account, changing nothing', async () => {
    const { families, ended, refresh } = setup();
    await expect(refresh('rt_unknown')).rejects.toThrow(RefreshTokenInvalidError);
    families.user = { ...USER, status: 'blocked' as PresentedRefreshToken['user']['status'] };
    await expect(refresh('rt_0')).rejects.toThrow(RefreshTokenInvalidError);
    expect(ended).toEqual([]);
  });

  it('refuses the tokens of an ended family without calling it re-use', async () => {
    const { families, ended, refresh } = setup();
    families.end('f1');
    await expect(refresh('rt_0')).rejects.toThrow(RefreshTokenInvalidError);
    expect(ended).toEqual([]);
  });
});

describe('decideReplay', () => {
  const state = (over: Partial<FamilyReplayState> = {}): FamilyReplayState => ({
    generation: 5,
    live: true,
    inGrace: true,
    graceResponse: 'sealed',
    ...over,
  });

  it('is invalid for a missing or ended family, and for the current token', () => {
    expect(decideReplay(4, null)).toEqual({ kind: 'invalid' });
    expect(decideReplay(4, state({ live: false }))).toEqual({ kind: 'invalid' });
    expect(decideReplay(5, state())).toEqual({ kind: 'invalid' });
  });

  it('answers again only the previous token, in the window, with a kept answer', () => {
    expect(decideReplay(4, state())).toEqual({ kind: 'grace', sealed: 'sealed' });
    expect(decideReplay(4, state({ inGrace: false }))).toEqual({ kind: 'reuse' });
    expect(decideReplay(4, state({ graceResponse: null }))).toEqual({ kind: 'reuse' });
    expect(decideReplay(3, state())).toEqual({ kind: 'reuse' });
    expect(decideReplay(0, state())).toEqual({ kind: 'reuse' });
  });
});
