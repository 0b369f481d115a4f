import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { z } from 'zod';
import { ANALYTICS_CONFIG, type AnalyticsConfig } from '../../config/analytics.config.js';
import { AnalyticsStore } from '../storage/analytics-store.js';
import type { ModelPriceRecord } from '../storage/records.js';

const RELOAD_MS = 60_000;

const OverrideSchema = z.object({
  id: z.string().optional(),
  modelName: z.string().min(1),
  matchPattern: z.string().min(1),
  startDate: z.iso.datetime({ offset: true }).nullish(),
  unit: z.string().default('TOKENS'),
  prices: z.record(z.string(), z.number().nonnegative()),
});

interface CompiledPrice extends ModelPriceRecord {
  regex: RegExp;
  /** 2 project row, 1 `ANALYTICS_MODEL_PRICES`, 0 seeded/global row. */
  rank: number;
}

/**
 * The model price table (docs/analytics.md § Cost), kept in memory: global rows seeded by a
 * migration, overridden by `ANALYTICS_MODEL_PRICES`, overridden per project by rows with a
 * `project_id`. Reloaded every minute. A model matches a row by the row's regular expression
 * (Langfuse's `matchPattern`, `(?i)` = ignore case); the newest applicable `startDate` wins.
 */
@Injectable()
export class PriceTable implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PriceTable');
  private rows: CompiledPrice[] = [];
  private job?: PeriodicJob;

  constructor(
    private readonly store: AnalyticsStore,
    @Inject(ANALYTICS_CONFIG) private readonly config: AnalyticsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
    this.job = periodicJobs.every('analytics.price-table-reload', RELOAD_MS, () => this.reload());
  }

  onApplicationShutdown(): Promise<void> | undefined {
    return this.job?.stop();
  }

  async reload(): Promise<void> {
    const stored = await this.store.listModelPrices();
    const overrides = this.config.ANALYTICS_MODEL_PRICES.map((raw, i) => {
      const o = OverrideSchema.parse(raw);
      return {
        id: o.id ?? `config:${i}:${o.modelName}`,
        projectId: null,
        modelName: o.modelName,
        matchPattern: o.matchPattern,
        startDate: o.startDate ? new Date(o.startDate) : null,
        unit: o.unit,
        prices: o.prices,
      } satisfies ModelPriceRecord;
    });
    const compiled: CompiledPrice[] = [];
    for (const [rows, rank] of [
      [stored, 0],
      [overrides, 1],
    ] as const) {
      for (const row of rows) {
        const regex = compilePattern(row.matchPattern);
        if (!regex) {
          this.logger.warn(`model price ${row.id}: invalid matchPattern, ignored`);
          continue;
        }
        compiled.push({ ...row, regex, rank: row.projectId !== null ? 2 : rank });
      }
    }
    this.rows = compiled;
  }

  /** The price row for a model used by a project at a time, or null. */
  match(projectId: number, model: string, at: Date): ModelPriceRecord | null {
    let best: CompiledPrice | null = null;
    for (const row of this.rows) {
      if (row.projectId !== null && row.projectId !== projectId) continue;
      if (row.startDate && row.startDate.getTime() > at.getTime()) continue;
      if (!row.regex.test(model)) continue;
      if (
        !best ||
        row.rank > best.rank ||
        (row.rank === best.rank &&
          (row.startDate?.getTime() ?? 0) > (best.startDate?.getTime() ?? 0))
      ) {
        best = row;
      }
    }
    return best;
  }
}

/** Langfuse patterns may start with `(?i)`; JavaScript wants the flag outside. */
export function compilePattern(pattern: string): RegExp | null {
  const insensitive = pattern.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? 'i' : '');
  } catch {
    return null;
  }
}
