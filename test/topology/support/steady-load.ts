import type { PlatformStack } from '../../support/stack.js';

/** One request of the load: what it was, when it ended (epoch ms), how it was answered. */
export interface LoadAnswer {
  kind: 'transfer' | 'organization';
  /** Epoch ms when the request was sent and when its answer (or error) came. */
  sentAt: number;
  endedAt: number;
  /** HTTP status; 0 when no answer came at all (connection refused or reset). */
  status: number;
  retryAfter: string | null;
  /** The new organization's id (`organization` answered 2xx). */
  organizationId?: string;
}

/** What the load sends: a bearer token per kind and the wallets a transfer moves 1 credit between. */
export interface LoadTargets {
  /** Token of an ADMIN of the organization that owns `from`. */
  transferToken: string;
  from: string;
  to: string;
  /** Token of the user who creates organizations. */
  organizationToken: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A steady load through the gateway while faults happen: `transferWorkers` loops of wallet
 * transfers (1 credit each, `POST /v1/api/wallets/transact`) and `organizationWorkers` loops of
 * organization creations (`POST /v1/api/organizations`), each sending its next request
 * `pauseMs` after the previous answer. No request is retried: every answer is kept as it came.
 */
export class SteadyLoad {
  readonly answers: LoadAnswer[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private counter = 0;

  constructor(
    private readonly stack: PlatformStack,
    private readonly targets: LoadTargets,
    private readonly options = { transferWorkers: 2, organizationWorkers: 1, pauseMs: 25 },
  ) {}

  start(): void {
    this.running = true;
    for (let i = 0; i < this.options.transferWorkers; i++) this.loops.push(this.loop('transfer'));
    for (let i = 0; i < this.options.organizationWorkers; i++)
      this.loops.push(this.loop('organization'));
  }

  /** Stops sending and waits for the requests in flight. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Answers of requests sent in `[from, to)` (epoch ms). */
  between(from: number, to: number): LoadAnswer[] {
    return this.answers.filter((a) => a.sentAt >= from && a.sentAt < to);
  }

  /** Ids of the organizations whose creation was answered 2xx. */
  organizations(): string[] {
    return this.answers.flatMap((a) => (a.organizationId ? [a.organizationId] : []));
  }

  /**
   * The longest time, ms, between two consecutive 2xx answers of one kind among those sent in
   * `[from, to)`: how long that kind of request did not get through around a fault.
   */
  longestGap(kind: LoadAnswer['kind'], from: number, to: number): number {
    const ok = this.between(from, to)
      .filter((a) => a.kind === kind && a.status >= 200 && a.status < 300)
      .map((a) => a.endedAt)
      .sort((a, b) => a - b);
    let gap = 0;
    for (let i = 1; i < ok.length; i++) gap = Math.max(gap, ok[i] - ok[i - 1]);
    return gap;
  }

  private async loop(kind: LoadAnswer['kind']): Promise<void> {
    while (this.running) {
      this.answers.push(await this.send(kind));
      await sleep(this.options.pauseMs);
    }
  }

  private async send(kind: LoadAnswer['kind']): Promise<LoadAnswer> {
    const sentAt = Date.now();
    const n = ++this.counter;
    try {
      const res =
        kind === 'transfer'
          ? await this.stack.request('POST', '/v1/api/wallets/transact', {
              token: this.targets.transferToken,
              body: {
                transaction: {
                  from_wallet: this.targets.from,
                  to_wallet: this.targets.to,
                  from_asset: 'CREDITS',
                  to_asset: 'CREDITS',
                  amount: 1,
                  description: `load ${n}`,
                },
              },
            })
          : await this.stack.request('POST', '/v1/api/organizations', {
              token: this.targets.organizationToken,
              body: { data: { type: 'organization', attributes: { name: `Load ${n}` } } },
            });
      const ok = res.status >= 200 && res.status < 300;
      return {
        kind,
        sentAt,
        endedAt: Date.now(),
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ...(kind === 'organization' && ok ? { organizationId: String(res.body.data.id) } : {}),
      };
    } catch {
      return { kind, sentAt, endedAt: Date.now(), status: 0, retryAfter: null };
    }
  }
}

/**
 * Counts answers: 2xx, retryable refusals (503 with `Retry-After`), and the rest (failures a
 * client cannot simply retry: other statuses, no answer), by status.
 */
export function tally(answers: LoadAnswer[]): {
  sent: number;
  ok: number;
  retryable: number;
  failed: Record<string, number>;
} {
  const failed: Record<string, number> = {};
  let ok = 0;
  let retryable = 0;
  for (const a of answers) {
    if (a.status >= 200 && a.status < 300) ok++;
    else if (a.status === 503 && a.retryAfter) retryable++;
    else failed[`${a.kind} ${a.status}`] = (failed[`${a.kind} ${a.status}`] ?? 0) + 1;
  }
  return { sent: answers.length, ok, retryable, failed };
}
