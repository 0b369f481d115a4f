import {
  listenToConflicts,
  retryingTransaction,
  TRANSACTION_CONFLICT_RETRIES,
  transactionRetryPolicy,
} from './transaction-retry.js';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });
const serialization = () =>
  Object.assign(new Error('query failed'), {
    driverError: Object.assign(new Error('could not serialize access'), { code: '40001' }),
  });

/** A unit of work failing with `errors` in turn, then answering `done`. */
function flaky(errors: Error[]) {
  let calls = 0;
  const work = async () => {
    calls += 1;
    await Promise.resolve();
    const error = errors.shift();
    if (error) throw error;
    return 'done';
  };
  return { work, calls: () => calls };
}

describe('transaction retry (docs/architecture.md § Deadlocks and serialization failures)', () => {
  const owner = { transactionRetry: transactionRetryPolicy() };
  let retried = 0;
  let gaveUp = 0;
  listenToConflicts(owner.transactionRetry, {
    retried: () => (retried += 1),
    gaveUp: () => (gaveUp += 1),
  });
  beforeEach(() => {
    retried = 0;
    gaveUp = 0;
  });

  it('runs the whole unit again after a deadlock or a serialization failure', async () => {
    const { work, calls } = flaky([deadlock(), serialization()]);
    await expect(retryingTransaction(owner, work)).resolves.toBe('done');
    expect(calls()).toBe(3);
    expect({ retried, gaveUp }).toEqual({ retried: 2, gaveUp: 0 });
  });

  it('gives up after its retries with the conflict itself', async () => {
    const errors = Array.from({ length: TRANSACTION_CONFLICT_RETRIES + 1 }, deadlock);
    const { work, calls } = flaky(errors);
    await expect(retryingTransaction(owner, work)).rejects.toMatchObject({ code: '40P01' });
    expect(calls()).toBe(TRANSACTION_CONFLICT_RETRIES + 1);
    expect({ retried, gaveUp }).toEqual({ retried: TRANSACTION_CONFLICT_RETRIES, gaveUp: 1 });
  });

  it('never repeats a unit that failed for any other reason', async () => {
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    const { work, calls } = flaky([unique]);
    await expect(retryingTransaction(owner, work)).rejects.toBe(unique);
    expect(calls()).toBe(1);
    expect({ retried, gaveUp }).toEqual({ retried: 0, gaveUp: 0 });
  });

  it('uses a shared policy for a DataSource without one', async () => {
    const { work, calls } = flaky([deadlock()]);
    await expect(retryingTransaction({}, work)).resolves.toBe('done');
    expect(calls()).toBe(2);
  });
});
