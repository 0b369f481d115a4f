import type { ClaimedDelivery } from './delivery-store.js';

interface EndpointQueue {
  waiting: ClaimedDelivery[];
  sending: number;
}

/**
 * The dispatcher's own queues (docs/org.md § Webhooks, Dispatcher): the deliveries it leased,
 * per endpoint, oldest due first, and how many of each endpoint's are being sent. `next` hands
 * out what may start now — at most `perEndpoint` sending per endpoint and `maxSending` in all —
 * taking endpoints in turn, so one endpoint's backlog cannot keep the others waiting for the
 * process's slots. Not thread-safe by design: one event loop.
 */
export class EndpointQueues {
  private readonly queues = new Map<string, EndpointQueue>();
  private sendingTotal = 0;

  constructor(
    private readonly perEndpoint: number,
    private readonly maxSending: number,
  ) {}

  /** Deliveries waiting or being sent. */
  get size(): number {
    let n = this.sendingTotal;
    for (const q of this.queues.values()) n += q.waiting.length;
    return n;
  }

  /** Deliveries waiting for a slot. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.waiting.length;
    return n;
  }

  /** An endpoint's deliveries held here: waiting or being sent. */
  heldFor(endpointId: string): number {
    const q = this.queues.get(endpointId);
    return q ? q.waiting.length + q.sending : 0;
  }

  /** Queues leased deliveries behind their endpoints' earlier ones. */
  push(claims: readonly ClaimedDelivery[]): void {
    for (const claim of claims) this.queueOf(claim.endpointId).waiting.push(claim);
  }

  /** Takes what may start now and counts it as sending; call `sent` when each attempt's request ends. */
  next(): ClaimedDelivery[] {
    const out: ClaimedDelivery[] = [];
    let progressed = true;
    while (progressed && this.sendingTotal < this.maxSending) {
      progressed = false;
      for (const [endpointId, q] of this.queues) {
        if (this.sendingTotal >= this.maxSending) break;
        if (q.sending >= this.perEndpoint || q.waiting.length === 0) continue;
        out.push(q.waiting.shift()!);
        q.sending++;
        this.sendingTotal++;
        progressed = true;
        // to the back of the line: the next turn goes to the other endpoints first
        this.queues.delete(endpointId);
        this.queues.set(endpointId, q);
      }
    }
    return out;
  }

  /** One attempt's request for `endpointId` ended: its slot is free. */
  sent(endpointId: string): void {
    const q = this.queues.get(endpointId);
    if (!q) return;
    q.sending--;
    this.sendingTotal--;
    if (q.sending === 0 && q.waiting.length === 0) this.queues.delete(endpointId);
  }

  /** Removes and returns an endpoint's waiting deliveries (it was disabled). */
  drop(endpointId: string): ClaimedDelivery[] {
    const q = this.queues.get(endpointId);
    if (!q) return [];
    const waiting = q.waiting.splice(0);
    if (q.sending === 0) this.queues.delete(endpointId);
    return waiting;
  }

  /** Removes and returns every waiting delivery (shutdown). */
  dropAll(): ClaimedDelivery[] {
    const all: ClaimedDelivery[] = [];
    for (const endpointId of [...this.queues.keys()]) all.push(...this.drop(endpointId));
    return all;
  }

  private queueOf(endpointId: string): EndpointQueue {
    let q = this.queues.get(endpointId);
    if (!q) {
      q = { waiting: [], sending: 0 };
      this.queues.set(endpointId, q);
    }
    return q;
  }
}
