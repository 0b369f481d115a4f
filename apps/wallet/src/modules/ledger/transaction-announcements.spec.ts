import type { EventBus } from '@wp/messaging';
import type { TxHost } from '@wp/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { TransactionAnnouncements } from './transaction-announcements.js';

/**
 * docs/decisions.md § Webhook events: the transfer path runs the announcing statement only
 * while some organization wants transaction events, and only for debits, transfers and
 * conversions; unsure (never read) means announce.
 */
describe('TransactionAnnouncements', () => {
  // The delivery's transaction, as the event bus's boundary gives it to `txHost.tx`.
  const m = { query: jest.fn(() => Promise.resolve([])) };
  const setup = (wanted: () => Promise<unknown>) => {
    const query = jest.fn(wanted);
    const dataSource = { query } as unknown as DataSource;
    const bus = { on: jest.fn() } as unknown as EventBus;
    const txHost = { tx: m as unknown as EntityManager } as TxHost;
    return { announcements: new TransactionAnnouncements(txHost, dataSource, bus), query };
  };
  beforeEach(() => m.query.mockClear());

  it('announces debits, transfers and conversions until it has read the hints', () => {
    const { announcements } = setup(() => Promise.resolve([{ wanted: false }]));
    expect(announcements.announces('transfer')).toBe(true);
    expect(announcements.announces('debit')).toBe(true);
    expect(announcements.announces('conversion')).toBe(true);
    // Credits and transfer requests have events of their own.
    expect(announcements.announces('credit')).toBe(false);
    expect(announcements.announces('transfer_request')).toBe(false);
  });

  it('runs the plain statement while no organization wants them, and again once one does', async () => {
    let wanted = false;
    const { announcements } = setup(() => Promise.resolve([{ wanted }]));
    await announcements.refresh();
    expect(announcements.announces('transfer')).toBe(false);
    await announcements.apply({ organizationId: 7, transactionEvents: true, version: 3 });
    expect(announcements.announces('transfer')).toBe(true);
    expect(m.query).toHaveBeenCalledWith(expect.stringContaining('INSERT INTO webhook_hint'), [
      7,
      true,
      3,
    ]);
    wanted = true;
    await announcements.refresh();
    expect(announcements.announces('transfer')).toBe(true);
    wanted = false; // the last subscription went away (seen by any replica on its next read)
    await announcements.refresh();
    expect(announcements.announces('transfer')).toBe(false);
  });

  it('keeps what it knew when the hints cannot be read', async () => {
    let fail = false;
    const { announcements } = setup(() =>
      fail ? Promise.reject(new Error('connection lost')) : Promise.resolve([{ wanted: false }]),
    );
    await announcements.refresh();
    fail = true;
    await announcements.refresh();
    expect(announcements.announces('transfer')).toBe(false);
  });
});
