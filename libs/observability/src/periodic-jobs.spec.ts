import { PeriodicJobs } from './periodic-jobs.js';

describe('PeriodicJobs', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const setup = () => {
    const warnings: string[] = [];
    return { warnings, jobs: new PeriodicJobs({ warn: (m) => warnings.push(m) }) };
  };

  it('lists jobs by name and interval, and forgets them once stopped', async () => {
    const { jobs } = setup();
    const a = jobs.every('svc.a', 1000, () => undefined);
    jobs.every('svc.b', 50, () => undefined);
    expect(jobs.list()).toEqual([
      { name: 'svc.a', intervalMs: 1000 },
      { name: 'svc.b', intervalMs: 50 },
    ]);
    await a.stop();
    expect(jobs.list()).toEqual([{ name: 'svc.b', intervalMs: 50 }]);
    await jobs.stopAll();
    expect(jobs.list()).toEqual([]);
  });

  it('runs every interval, never overlapping a run with itself', async () => {
    const { jobs } = setup();
    let started = 0;
    let finish!: () => void;
    jobs.every('svc.slow', 100, () => {
      started += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await jest.advanceTimersByTimeAsync(350);
    expect(started).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(100);
    expect(started).toBe(2);
    finish();
    await jobs.stopAll();
  });

  it('logs a failing run and keeps running', async () => {
    const { jobs, warnings } = setup();
    let runs = 0;
    jobs.every('svc.flaky', 10, () => {
      runs += 1;
      if (runs === 1) throw new Error('boom');
      return Promise.reject(new Error('later'));
    });
    await jest.advanceTimersByTimeAsync(20);
    expect(warnings).toEqual(['svc.flaky: boom', 'svc.flaky: later']);
    await jobs.stopAll();
  });

  it('stopAll stops the timers and waits for a pending run', async () => {
    const { jobs } = setup();
    let runs = 0;
    let finish!: () => void;
    const job = jobs.every('svc.x', 10, () => {
      runs += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    await jest.advanceTimersByTimeAsync(10);
    let stopped = false;
    const stopping = jobs.stopAll().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    expect(job.active).toBe(false);
    finish();
    await stopping;
    await jest.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1);
  });

  it('refuses an interval that is not a positive number', () => {
    const { jobs } = setup();
    expect(() => jobs.every('svc.bad', 0, () => undefined)).toThrow(RangeError);
    expect(() => jobs.every('svc.bad', Number.NaN, () => undefined)).toThrow(RangeError);
  });
});
