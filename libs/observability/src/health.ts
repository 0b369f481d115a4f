import { Controller, Get, Injectable, Module, Res, type DynamicModule } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { NoApiKey, Public } from '@wp/http';
import type { FastifyReply } from 'fastify';

/** A readiness check: resolves when the dependency answers, rejects (or times out) when not. */
export type ReadinessCheck = () => Promise<void>;

/**
 * Where platform modules (database, Redis, NATS) register what `GET /health/ready` checks.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  entries(): [string, ReadinessCheck][] {
    return [...this.checks.entries()];
  }
}

const CHECK_TIMEOUT_MS = 2000;

@Controller('health')
@Public()
@NoApiKey()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly registry: ReadinessRegistry,
  ) {}

  /** `GET /health/live`: the process answers. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * `GET /health/ready`: 200 `{status:'ok', info:{database:{status:'up'},…}}` when every
   * registered dependency answers within 2 s; 503 with the same shape and `error` otherwise.
   */
  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const checks = this.registry.entries().map(([name, check]) => async () => {
      const indicator = this.indicators.check(name);
      try {
        await withTimeout(check(), CHECK_TIMEOUT_MS);
        return indicator.up();
      } catch (error) {
        return indicator.down({ message: error instanceof Error ? error.message : String(error) });
      }
    });
    try {
      const result = await this.health.check(checks);
      await reply.status(200).send(result);
    } catch (error) {
      const body = (error as { getResponse?: () => unknown }).getResponse?.() ?? {
        status: 'error',
      };
      await reply.status(503).send(body);
    }
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

/** `GET /health/live` and `GET /health/ready` via @nestjs/terminus. */
@Module({})
export class HealthModule {
  static forRoot(): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [ReadinessRegistry],
      exports: [ReadinessRegistry],
    };
  }
}
