import { DomainError } from '@wp/http';
import type { Outbox } from '@wp/messaging';
import { agentSessionId, ENDED_EPOCH_DENY_SECONDS, type RevocationList } from '@wp/security';
import type { OrgConfig } from '../../config/org.config.js';
import { SentinelPassEvents } from './sentinel-pass-events.js';
import type { SentinelPass } from './sentinel-pass.entity.js';
import type { SentinelPassesRepository } from './sentinel-passes.repository.js';

const ID = '11111111-1111-4111-8111-111111111111';

function pass(changes: Partial<SentinelPass> = {}): SentinelPass {
  return {
    id: ID,
    organizationId: 1,
    projectId: 2,
    title: 'bot',
    active: true,
    keyHash: 'a'.repeat(64),
    expiresAt: null,
    allowedReferers: [],
    scopes: [],
    permissions: ['read'],
    version: 3,
    credentialEpoch: 4,
    ...changes,
  } as SentinelPass;
}

function setup(revokeSession: (sid: string, ttl: number) => Promise<void>) {
  const enqueued: { subject: string; payload: Record<string, unknown> }[] = [];
  const outbox = {
    enqueue: (subject: string, payload: Record<string, unknown>) => {
      enqueued.push({ subject, payload });
      return Promise.resolve();
    },
  } as unknown as Outbox;
  const passes = {
    endCredentialEpoch: (id: string) =>
      Promise.resolve(pass({ id, active: false, version: 4, credentialEpoch: 5 })),
    delete: () => Promise.resolve(),
  } as unknown as SentinelPassesRepository;
  const revocations = { revokeSession } as unknown as RevocationList;
  const config = { ACCESS_TOKEN_TTL_SECONDS: 900 } as OrgConfig;
  return { events: new SentinelPassEvents(outbox, passes, revocations, config), enqueued };
}

describe('SentinelPassEvents', () => {
  it('deny-lists the ended epoch for the access token lifetime and announces the next one', async () => {
    const revokeSession = jest.fn((_sid: string, _ttl: number) => Promise.resolve());
    const { events, enqueued } = setup(revokeSession);
    const now = await events.changed(pass({ active: false, version: 4 }), pass());
    expect(now.credentialEpoch).toBe(5);
    expect(revokeSession).toHaveBeenCalledWith(agentSessionId(ID, 4), ENDED_EPOCH_DENY_SECONDS);
    expect(enqueued[0]?.payload).toMatchObject({ active: false, version: 4, credentialEpoch: 5 });
  });

  it('deny-lists nothing for a change that keeps the epoch (update, activate)', async () => {
    const revokeSession = jest.fn(() => Promise.resolve());
    const { events, enqueued } = setup(revokeSession);
    await events.changed(pass({ title: 'renamed' }), pass());
    await events.changed(pass(), pass({ active: false }));
    expect(revokeSession).not.toHaveBeenCalled();
    expect(enqueued.map((e) => e.payload.credentialEpoch)).toEqual([4, 4]);
  });

  it('announces a deletion with the next epoch and deny-lists the current one', async () => {
    const revokeSession = jest.fn((_sid: string, _ttl: number) => Promise.resolve());
    const { events, enqueued } = setup(revokeSession);
    await events.deleteAndAnnounce(pass());
    expect(revokeSession).toHaveBeenCalledWith(agentSessionId(ID, 4), ENDED_EPOCH_DENY_SECONDS);
    expect(enqueued[0]?.payload).toMatchObject({ deleted: true, version: 4, credentialEpoch: 5 });
  });

  it('fails with 503 UNAVAILABLE when the deny-list store does not answer', async () => {
    const { events } = setup(() => Promise.reject(new Error('connection refused')));
    const failure = events.changed(pass({ keyHash: 'b'.repeat(64) }), pass());
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({ category: 'unavailable', code: 'UNAVAILABLE' });
  });
});
