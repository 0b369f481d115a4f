import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  Res,
  type DynamicModule,
} from '@nestjs/common';
import { NoApiKey, Public } from '@wp/http';
import type { FastifyReply } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics.js';

/** A readiness check: resolves when the dependency answers, rejects (or times out) when not. */
export type ReadinessCheck = () => Promise<void>;

/**
 * What a dependency being down does to the service (docs/operations.md § Readiness):
 * `required` — the service cannot serve without it, readiness answers 503; `degraded` — requests
 * are still served (NATS down: the outbox keeps events) or answered at once (Redis down: 503 with
 * `Retry-After`, and every replica shares it), readiness stays 200 and says `degraded`.
 */
export type DependencyImpact = 'required' | 'degraded';

export interface DependencyStatus {
  status: 'up' | 'down';
  impact: DependencyImpact;
  /** Why it is down. */
  message?: string;
}

/** Body of `GET /health/ready`. */
export interface ReadinessReport {
  /** `ok`: all up; `degraded`: only `degraded` dependencies down; `error`: a required one down. */
  status: 'ok' | 'degraded' | 'error';
  /** Dependencies that answered. */
  info: Record<string, DependencyStatus>;
  /** Dependencies that did not (required or degraded). */
  error: Record<string, DependencyStatus>;
  /** Every dependency. */
  details: Record<string, DependencyStatus>;
}

interface Registered {
  check: ReadinessCheck;
  impact: DependencyImpact;
}

const CHECK_TIMEOUT_MS = 2000;

/**
 * Where platform modules (database, Redis, NATS, the platform database) register what
 * `GET /health/ready` checks, each with its impact. Also the gauge
 * `health_dependency_up{dependency,impact}` (1 up, 0 down), refreshed on every readiness probe
 * and every scrape of `/metrics`.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, Registered>();
  private readonly gauge: Gauge<'dependency' | 'impact'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    const checkAll = () => this.check();
    this.gauge = new Gauge({
      name: 'health_dependency_up',
      help: 'Whether a dependency answers its readiness check (1) or not (0)',
      labelNames: ['dependency', 'impact'],
      registers: [registry],
      async collect() {
        await checkAll();
      },
    });
  }

  register(name: string, check: ReadinessCheck, impact: DependencyImpact = 'required'): void {
    this.checks.set(name, { check, impact });
  }

  /** Runs every check (2 s bound each, in parallel) and updates the gauge. */
  async check(): Promise<ReadinessReport> {
    const results = await Promise.all(
      [...this.checks.entries()].map(async ([name, { check, impact }]) => {
        let status: DependencyStatus;
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          status = { status: 'up', impact };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          status = { status: 'down', impact, message };
        }
        this.gauge.set({ dependency: name, impact }, status.status === 'up' ? 1 : 0);
        return [name, status] as const;
      }),
    );
    const report: ReadinessReport = { status: 'ok', info: {}, error: {}, details: {} };
    for (const [name, status] of results) {
      report.details[name] = status;
      if (status.status === 'up') {
        report.info[name] = status;
      } else {
        report.error[name] = status;
        if (status.impact === 'required') report.status = 'error';
        else if (report.status === 'ok') report.status = 'degraded';
      }
    }
    return report;
  }
}

@Controller('health')
@Public()
@NoApiKey()
export class HealthController {
  constructor(private readonly registry: ReadinessRegistry) {}

  /** `GET /health/live`: the process answers. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * `GET /health/ready`: 200 with a {@link ReadinessReport} whose status is `ok` or `degraded`
   * (a `degraded`-impact dependency such as NATS is down: listed under `error`), 503 with status
   * `error` when a required dependency does not answer within 2 s. Once shutdown begins the
   * closing guard (libs/http framework-errors.ts) answers 503 before this runs.
   */
  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.registry.check();
    await reply.status(report.status === 'error' ? 503 : 200).send(report);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** `GET /health/live` and `GET /health/ready`; needs `MetricsModule` (the gauge's registry). */
@Module({})
export class HealthModule {
  static forRoot(): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      controllers: [HealthController],
      providers: [ReadinessRegistry],
      exports: [ReadinessRegistry],
    };
  }
}
