import { performance } from 'node:perf_hooks';

/** One measured step of a process's start-up, ms. */
export interface StartupPhase {
  name: string;
  ms: number;
}

/**
 * Where a process's start-up time goes (docs/operations.md § Start-up time): the main phases in
 * order (`phase`) and, inside them, the steps that wait on something (`track`: a database pool,
 * pg-boss, subscriptions, migrations). One per process; `runService` prints the summary once the
 * app listens. Steps of several apps in one process (tests) mix; nothing reads them there.
 */
export class StartupPhases {
  private readonly phases: StartupPhase[] = [];
  private readonly steps: StartupPhase[] = [];
  /** End of the last main phase, ms since the process started (`performance.now()`). */
  private last = 0;

  /** Ends the current main phase, named `name`, now. */
  phase(name: string): void {
    const now = performance.now();
    this.phases.push({ name, ms: now - this.last });
    this.last = now;
  }

  /** Ends the current main phase, named `name`, at `at` (ms since the process started). */
  phaseUntil(name: string, at: number): void {
    this.phases.push({ name, ms: at - this.last });
    this.last = at;
  }

  /** Runs `work`, recording how long it took as step `name`. */
  async track<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.steps.push({ name, ms: performance.now() - started });
    }
  }

  /** `ready in 2410 ms: node 45, modules 830, …, nest 1200 (database 80, pg-boss 610), …`. */
  summary(): string {
    const total = this.phases.reduce((sum, p) => sum + p.ms, 0);
    const round = (ms: number) => Math.round(ms);
    const steps = this.steps.map((s) => `${s.name} ${round(s.ms)}`).join(', ');
    const phases = this.phases.map((p) => `${p.name} ${round(p.ms)}`).join(', ');
    return `ready in ${round(total)} ms: ${phases}${steps ? ` (waits: ${steps})` : ''}`;
  }

  /** The phases and steps recorded so far. */
  snapshot(): { phases: StartupPhase[]; steps: StartupPhase[] } {
    return { phases: [...this.phases], steps: [...this.steps] };
  }
}

/** The process's start-up phases (docs/operations.md § Start-up time). */
export const startupPhases = new StartupPhases();
