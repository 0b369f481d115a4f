import { type z } from 'zod';
import { databaseUrlField, env, platformSchema } from '@wp/config';

/** Wallet service settings (README § Configuration). */
export const walletConfigSchema = platformSchema.extend({
  WALLET_PORT: env.port(8083),
  WALLET_HOST: env.string('0.0.0.0'),
  WALLET_DATABASE_URL: databaseUrlField('wallet'),
  /** Operator secrets accepted in `Admin-Access` (contract § Authentication 8), comma separated. */
  ADMIN_ACCESS_TOKENS: env.list([]),
});
export type WalletConfig = z.infer<typeof walletConfigSchema>;

export const WALLET_CONFIG = Symbol('WALLET_CONFIG');
