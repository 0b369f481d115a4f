import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ConversionRateConfig } from '../../config/wallet.config.js';

@Injectable()
export class AssetsRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * Adds the configured assets (existing ones stay: balances refer to them) and makes the rate
   * table equal to the configured rates, in one transaction.
   */
  async seed(assets: string[], rates: ConversionRateConfig[]): Promise<void> {
    await this.txHost.withTransaction(async () => {
      await this.txHost.tx.query(
        'INSERT INTO asset (code) SELECT unnest($1::text[]) ON CONFLICT (code) DO NOTHING',
        [assets],
      );
      await this.txHost.tx.query(
        `DELETE FROM conversion_rate r
         WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[], $2::text[]) AS c(f, t)
                           WHERE c.f = r.from_asset AND c.t = r.to_asset)`,
        [rates.map((r) => r.from), rates.map((r) => r.to)],
      );
      await this.txHost.tx.query(
        `INSERT INTO conversion_rate (from_asset, to_asset, rate, updated_at)
         SELECT f, t, r::numeric, now() FROM unnest($1::text[], $2::text[], $3::text[]) AS c(f, t, r)
         ON CONFLICT (from_asset, to_asset) DO UPDATE
           SET rate = EXCLUDED.rate, updated_at = now()
           WHERE conversion_rate.rate <> EXCLUDED.rate`,
        [rates.map((r) => r.from), rates.map((r) => r.to), rates.map((r) => r.rate)],
      );
    });
  }

  async codes(): Promise<string[]> {
    const rows: { code: string }[] = await this.dataSource.query(
      'SELECT code FROM asset ORDER BY code',
    );
    return rows.map((r) => r.code);
  }
}
