import type { NatsConnection } from 'nats';
import { waitFor } from '@wp/testing';
import type { PlatformStack } from '../../support/stack.js';
import {
  namespaceStreams,
  outboxes,
  outboxRowsPerStream,
  walletsPerOrganization,
} from './platform-audit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What {@link auditEvents} found: the figures printed and the lists asserted empty. */
export interface EventAudit {
  /** ms from the call until every outbox row was published and every wallet opened. */
  drainedAfterMs: number;
  organizations: number;
  /** Organizations with no wallet (an event lost) or more than one (a duplicate). */
  walletsNotExactlyOne: [string, number][];
  /** Per stream: outbox rows of its subjects and messages it holds (equal: none twice). */
  published: Record<string, { outbox: number; stream: number }>;
}

/**
 * The event audit of a topology test after its load stopped (docs/operations.md § Production
 * topology under faults): waits (up to 60 s) until every outbox row is published and every
 * organization of `organizationIds` has a wallet, lets 2 s pass for a duplicate delivery to land,
 * then counts the wallets per organization and compares each JetStream stream of the stack's
 * namespace with the outbox rows of its subjects (a publish sent again after a leader change
 * must have been dropped by `Nats-Msg-Id`).
 * @throws when the outboxes do not drain within 60 s
 */
export async function auditEvents(
  stack: PlatformStack,
  nc: NatsConnection,
  organizationIds: string[],
): Promise<EventAudit> {
  const started = Date.now();
  await waitFor(
    async () => {
      const o = await outboxes(stack);
      const counts = await walletsPerOrganization(stack, organizationIds);
      return (
        Object.values(o).every((x) => x.unpublished === 0) &&
        [...counts.values()].every((n) => n >= 1)
      );
    },
    { timeoutMs: 60_000, intervalMs: 200, what: 'every outbox published, every wallet opened' },
  );
  const drainedAfterMs = Date.now() - started;
  await sleep(2000);
  const counts = await walletsPerOrganization(stack, organizationIds);
  const rows = await outboxRowsPerStream(stack);
  const streams = await namespaceStreams(nc, stack.env.id);
  const published = Object.fromEntries(
    Object.entries(rows).map(([name, outbox]) => [
      name,
      {
        outbox,
        stream:
          streams.find((s) => s.config.name === `${stack.env.id}_${name}`)?.state.messages ?? 0,
      },
    ]),
  );
  return {
    drainedAfterMs,
    organizations: organizationIds.length,
    walletsNotExactlyOne: [...counts.entries()].filter(([, n]) => n !== 1),
    published,
  };
}

/** Asserts an {@link EventAudit}: no event lost, none published or delivered twice. */
export function expectNoEventLostOrDuplicated(audit: EventAudit): void {
  expect(audit.walletsNotExactlyOne).toEqual([]);
  expect(Object.keys(audit.published)).toEqual(expect.arrayContaining(['ORG', 'WALLET']));
  for (const [name, p] of Object.entries(audit.published)) {
    expect({ name, ...p }).toEqual({ name, outbox: p.outbox, stream: p.outbox });
  }
}
