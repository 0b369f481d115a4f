import { type PeriodicJob, periodicJobs } from '@wp/observability';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { WALLET_CONFIG, type WalletConfig } from '../../config/wallet.config.js';
import { TransfersService } from './transfers.service.js';

const BATCH = 100;

/**
 * The background sweeper of transfer requests: every `WALLET_TRANSFER_SWEEP_INTERVAL_MS` it
 * expires pending requests past their deadline and returns their holds (batches of 100, rows
 * claimed with `FOR UPDATE SKIP LOCKED`, so several replicas sweep side by side). Steps also
 * expire an overdue request themselves, so correctness never waits for the sweeper.
 */
@Injectable()
export class TransfersSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TransfersSweeper');
  private job?: PeriodicJob;

  constructor(
    private readonly transfers: TransfersService,
    @Inject(WALLET_CONFIG) private readonly config: WalletConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job = periodicJobs.every(
      'wallet.transfer-sweep',
      this.config.WALLET_TRANSFER_SWEEP_INTERVAL_MS,
      () => this.drain(),
    );
  }

  /** Before any module shuts down, so a sweep in flight still has its database. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.job?.stop();
  }

  /** One sweep (also for tests); overlapping calls share the running one. */
  sweep(): Promise<void> {
    return this.job ? this.job.runNow() : this.drain();
  }

  private async drain(): Promise<void> {
    try {
      let expired: number;
      do {
        expired = await this.transfers.expireDue(BATCH);
        if (expired > 0) this.logger.log(`expired ${expired} transfer request(s)`);
      } while (expired === BATCH && this.job?.active === true);
    } catch (error) {
      this.logger.warn(`sweep failed, will retry: ${(error as Error).message}`);
    }
  }
}
