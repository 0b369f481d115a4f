import { z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/** An asset code: `CREDITS`, `USD`, … (2-16 upper-case letters, digits or `_`, letter first). */
export const ASSET_CODE = /^[A-Z][A-Z0-9_]{1,15}$/;

/** One configured conversion: `amount_to = trunc(amount_from × rate, 8)`. */
export interface ConversionRateConfig {
  from: string;
  to: string;
  /** Decimal string, > 0, at most 18 decimals. */
  rate: string;
}

const RATE = /^(?:0|[1-9]\d{0,19})(?:\.\d{1,18})?$/;

/**
 * `WALLET_CONVERSION_RATES`: `FROM:TO=rate` entries, comma separated, e.g.
 * `USD:CREDITS=100,CREDITS:USD=0.01`. Each direction is configured on its own (no implied
 * inverse). Empty: no conversions.
 */
const conversionRates = z
  .string()
  .default('USD:CREDITS=100,CREDITS:USD=0.01')
  .transform((value, ctx): ConversionRateConfig[] => {
    const rates: ConversionRateConfig[] = [];
    for (const part of value
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^([^:=\s]+):([^:=\s]+)=(\S+)$/.exec(part);
      const [, from, to, rate] = match ?? [];
      if (
        !from ||
        !to ||
        !rate ||
        !ASSET_CODE.test(from) ||
        !ASSET_CODE.test(to) ||
        from === to ||
        !RATE.test(rate) ||
        Number(rate) <= 0
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `expected FROM:TO=rate entries with two different asset codes and a positive decimal rate (bad entry "${part}")`,
        });
        return z.NEVER;
      }
      rates.push({ from, to, rate });
    }
    return rates;
  });

const assetList = env
  .list(['CREDITS', 'USD'])
  .refine((codes) => codes.length > 0 && codes.every((c) => ASSET_CODE.test(c)), {
    message: 'expected asset codes like CREDITS,USD (A-Z, 0-9, _; 2-16 characters)',
  });

/** Wallet service settings (docs/wallet.md § Configuration). */
export const walletConfigSchema = platformSchema
  .extend({
    WALLET_PORT: env.port(8083),
    METRICS_PORT: env.listenPort(9083),
    WALLET_HOST: env.string('0.0.0.0'),
    WALLET_DATABASE_URL: databaseUrlField('wallet'),
    /** Connections of the wallet's PostgreSQL pool. */
    WALLET_DATABASE_POOL_SIZE: env.int(10, 1),
    /**
     * Operator secrets accepted in `Admin-Access` (docs/api.md § Authentication 8), comma
     * separated.
     */
    ADMIN_ACCESS_TOKENS: env.list([]),
    /**
     * Assets seeded into the asset table at boot (docs/architecture.md § Assets and conversion).
     */
    WALLET_ASSETS: assetList,
    /** Conversion rates mirrored into the rate table at boot. */
    WALLET_CONVERSION_RATES: conversionRates,
    /**
     * HMAC key of transfer-request verification codes (docs/wallet.md § Transfer requests), at
     * least 32 characters, the same for every wallet process: a code mailed by one replica is
     * checked by whichever answers the verify/accept. Required unless `NODE_ENV=test` (any
     * process may have a sibling; `npm start` generates one); under test an unset key is a
     * random per-process one.
     */
    WALLET_TRANSFER_CODE_SECRET: z
      .string()
      .min(32, 'expected at least 32 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Lifetime of a verification code, and so of each pending transfer phase, seconds. */
    WALLET_TRANSFER_CODE_TTL_SECONDS: env.int(600, 1),
    /** Wrong codes after which a transfer request is voided. */
    WALLET_TRANSFER_MAX_ATTEMPTS: env.int(5, 1),
    /** How often the sweeper voids expired transfer requests, ms. */
    WALLET_TRANSFER_SWEEP_INTERVAL_MS: env.int(5000, 100),
    /**
     * Ledger calls in flight per balance (wallet + asset) in one process; further requests for
     * the same balance wait in memory instead of holding a database connection while they wait
     * for its row lock, so a hot wallet cannot take the whole pool.
     */
    WALLET_HOT_BALANCE_CONCURRENCY: env.int(3, 1),
    /**
     * Most movements committed together in one ledger call when they queue up (group commit,
     * docs/wallet.md § Group commit); 1 turns batching off. At most 64: each movement of a batch
     * that is not a plain transfer is a subtransaction, and PostgreSQL caches 64 per
     * transaction.
     */
    WALLET_MOVE_BATCH_MAX: env.int(32, 1).refine((n) => n <= 64, 'at most 64'),
    /**
     * Ledger calls for movements with a destination in flight at once per process; movements
     * that arrive while all are busy wait and go together in the next free call (group commit,
     * docs/wallet.md § Group commit). Fewer calls in flight: bigger batches, less PostgreSQL
     * work per movement; more: less waiting when PostgreSQL has cores to spare.
     */
    WALLET_LEDGER_CONCURRENCY: env.int(2, 1),
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV !== 'test' && !config.WALLET_TRANSFER_CODE_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['WALLET_TRANSFER_CODE_SECRET'],
        message:
          'required (at least 32 characters, the same for every wallet process; npm start generates one)',
      });
    }
    const assets = new Set(config.WALLET_ASSETS);
    if (!assets.has('CREDITS')) {
      ctx.addIssue({
        code: 'custom',
        path: ['WALLET_ASSETS'],
        message: 'must include CREDITS, the default wallet currency',
      });
    }
    for (const rate of config.WALLET_CONVERSION_RATES) {
      for (const code of [rate.from, rate.to]) {
        if (!assets.has(code)) {
          ctx.addIssue({
            code: 'custom',
            path: ['WALLET_CONVERSION_RATES'],
            message: `asset ${code} is not listed in WALLET_ASSETS`,
          });
        }
      }
    }
  });
export type WalletConfig = z.infer<typeof walletConfigSchema>;

export const WALLET_CONFIG = Symbol('WALLET_CONFIG');
