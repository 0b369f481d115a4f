import { Logger } from '@nestjs/common';

/** What {@link PeriodicJobs.list} shows of one job. */
export interface PeriodicJobInfo {
  /** e.g. `analytics.project-purge`: service, then what the job does. */
  readonly name: string;
  /** Milliseconds between the starts of two runs. */
  readonly intervalMs: number;
}

/** How a failed run is reported; defaults to a Nest `Logger` named `PeriodicJobs`. */
export interface PeriodicJobLog {
  warn(message: string): void;
}

/**
 * One named job: `run` every `intervalMs` on an unref'd timer (it never keeps the process
 * alive). A run never overlaps itself: a tick while the previous run is pending is skipped,
 * and {@link runNow} joins the pending run. A run that throws or rejects is logged
 * (`<name>: <message>`) and the next tick runs again.
 */
export class PeriodicJob implements PeriodicJobInfo {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    readonly name: string,
    readonly intervalMs: number,
    private readonly run: () => unknown,
    private readonly log: PeriodicJobLog,
    private readonly forget: (job: PeriodicJob) => void,
  ) {
    this.timer = setInterval(() => void this.runNow(), intervalMs);
    this.timer.unref();
  }

  /** False once {@link stop} was called: long runs check it to end early. */
  get active(): boolean {
    return this.timer !== undefined;
  }

  /** Starts a run now, or joins the pending one; resolves when it ends (never rejects). */
  runNow(): Promise<void> {
    this.running ??= Promise.resolve()
      .then(() => this.run())
      .then(
        () => undefined,
        (error: unknown) =>
          this.log.warn(`${this.name}: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Stops the timer and waits for a pending run; idempotent. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.forget(this);
    await this.running;
  }
}

/**
 * The registry of a process's periodic jobs (docs/decisions.md § Libraries for generic parts):
 * every sweeper, relay, refresher and purge timer is started here, so {@link list} names all
 * of them with their interval in one place, and {@link stopAll} ends them on shutdown. Owners
 * stop their own jobs in their shutdown hooks as well (a job stops once).
 */
export class PeriodicJobs {
  private readonly jobs = new Set<PeriodicJob>();

  constructor(private readonly log: PeriodicJobLog = new Logger('PeriodicJobs')) {}

  /**
   * Starts `run` every `intervalMs` milliseconds (first run after one interval).
   * @throws RangeError when `intervalMs` is not a positive finite number.
   */
  every(name: string, intervalMs: number, run: () => unknown): PeriodicJob {
    if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
      throw new RangeError(`${name}: interval must be a positive number of ms, got ${intervalMs}`);
    }
    const job = new PeriodicJob(name, intervalMs, run, this.log, (j) => this.jobs.delete(j));
    this.jobs.add(job);
    return job;
  }

  /** The jobs running now, in start order. */
  list(): PeriodicJobInfo[] {
    return [...this.jobs].map(({ name, intervalMs }) => ({ name, intervalMs }));
  }

  /** Stops every job and waits for their pending runs. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs].map((job) => job.stop()));
  }
}

/** The process's registry: every periodic timer of the services and libraries. */
export const periodicJobs = new PeriodicJobs();
