import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { WebhookEvent } from '@wp/contracts';
import { TxHost } from '@wp/persistence';
import { cpuMeter } from './lib/cpu.js';
import { OutboundHttp } from '../apps/org/src/modules/webhooks/outbound-http.js';
import { WebhookPublisher } from '../apps/org/src/modules/webhooks/webhook-publisher.js';
import { newWebhookSecret, signWebhook } from '../apps/org/src/modules/webhooks/webhook-signer.js';
import { OrgTestContext } from '../apps/org/test/support/org-test-app.js';
import { memberAddedEvent } from '../test/support/webhook-world.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description = 'webhooks: deliveries/s and end-to-end p50/p99 to local receivers';

/**
 * Webhook delivery (docs/org.md § Webhooks): `--events` events are published in batches of 100
 * (one transaction each) to an organization with `--endpoints` endpoints selecting them, whose
 * receivers on 127.0.0.1 answer 204 at once; measured are deliveries per second (first publish
 * to last receipt) and the end-to-end latency of each delivery (commit of its batch to receipt),
 * p50/p99 — in that burst (mostly queueing), and then for `--steady-events` single events, one
 * every `--pace-ms` (the latency without a backlog). The ceiling, in the same run: the same HTTP client (the SSRF-filtering agents)
 * posting the same number of signed bodies straight to the receivers with the dispatcher's
 * concurrency (endpoints × `WEBHOOK_ENDPOINT_CONCURRENCY`): what the queue, claims and attempt
 * rows cost is the difference. Starts auth and org in this process on fresh databases.
 *
 * Before the measured burst an unmeasured one of `--warmup-events` events warms the process up.
 *
 *   npm run bench -- webhooks [--events 2000] [--warmup-events 3000] [--endpoints 4] [--concurrency 4]
 *     [--steady-events 100] [--pace-ms 50] [--steady-batch 1]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      events: { type: 'string', default: '2000' },
      'warmup-events': { type: 'string', default: '3000' },
      endpoints: { type: 'string', default: '4' },
      concurrency: { type: 'string', default: '4' },
      'steady-events': { type: 'string', default: '100' },
      'pace-ms': { type: 'string', default: '50' },
      'steady-batch': { type: 'string', default: '1' },
    },
  });
  const events = Number(values.events);
  const warmupEvents = Number(values['warmup-events']);
  const endpoints = Number(values.endpoints);
  const concurrency = Number(values.concurrency);
  const received: number[] = [];
  const publishedAt = new Map<string, number>();
  const latencies: number[] = [];
  const server = createServer((req, res) => {
    const id = req.headers['webhook-id'];
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      received.push(now);
      const at = typeof id === 'string' ? publishedAt.get(id) : undefined;
      if (at !== undefined) latencies.push(now - at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const ctx = await OrgTestContext.start({
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(concurrency),
    WEBHOOK_POLL_INTERVAL_MS: '100',
    ...(process.env.WEBHOOK_LEASE_AHEAD
      ? { WEBHOOK_LEASE_AHEAD: process.env.WEBHOOK_LEASE_AHEAD }
      : {}),
  });
  try {
    const owner = await ctx.newUser('bench');
    const orgId = await ctx.newOrganization(owner, 'Bench');
    for (let i = 0; i < endpoints; i++) {
      const res = await ctx.request('POST', `/organizations/${orgId}/webhook_endpoints`, {
        token: owner.token,
        body: {
          data: { type: 'webhook_endpoints', attributes: { url, eventTypes: ['member.*'] } },
        },
      });
      if (res.status !== 201) throw new Error(`endpoint: ${res.status}`);
    }
    const txHost = ctx.org.get(TxHost);
    const publisher = ctx.org.get(WebhookPublisher);
    // one burst: `list` published in batches of 100, waited for at every endpoint
    const burstOf = async (list: WebhookEvent[]) => {
      received.length = 0;
      latencies.length = 0;
      const started = performance.now();
      for (let i = 0; i < list.length; i += 100) {
        const batch = list.slice(i, i + 100);
        await txHost.withTransaction(() => publisher.publish(batch));
        const committed = performance.now();
        for (const e of batch) publishedAt.set(e.id, committed);
      }
      const publishSeconds = (performance.now() - started) / 1000;
      const receivedWhilePublishing = received.length;
      while (received.length < list.length * endpoints) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return {
        started,
        publishSeconds,
        receivedWhilePublishing,
        seconds: (received[received.length - 1] - started) / 1000,
      };
    };
    // warm-up, unmeasured: the first deliveries of a process run while V8 still compiles the
    // paths they take (about a sixth of the CPU of a cold burst), and the ceiling that follows
    // would run on code the burst warmed up
    await burstOf(Array.from({ length: warmupEvents }, () => memberAddedEvent(orgId)));
    const all = Array.from({ length: events }, () => memberAddedEvent(orgId));
    // CPU of this process (dispatcher, receivers, publishing) and of the org database's
    // backends, per delivery: steadier than the rate on a shared machine
    const backends: { pid: number }[] = await txHost.tx.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const burstMeter = cpuMeter({ postgres: backends.map((b) => b.pid) });
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    const measured = await burstOf(all);
    loopDelay.disable();
    const { started, publishSeconds, receivedWhilePublishing } = measured;
    const total = events * endpoints;
    const deliverySeconds = measured.seconds;
    const burst = percentiles(latencies);
    const burstCpu = burstMeter.end();
    if (process.env.BENCH_WINDOWS) {
      process.stderr.write(
        `burst window: ${(started / 1000).toFixed(2)}-${(performance.now() / 1000).toFixed(2)} s\n`,
      );
    }

    // steady: `--steady-batch` events (one transaction) every `--pace-ms`, each to every
    // endpoint: the latency without a backlog, at the rate this paces (printed)
    latencies.length = 0;
    const steady = Array.from({ length: Number(values['steady-events']) }, () =>
      memberAddedEvent(orgId),
    );
    const steadyBatch = Number(values['steady-batch']);
    const steadyStart = performance.now();
    for (let i = 0; i < steady.length; i += steadyBatch) {
      const batch = steady.slice(i, i + steadyBatch);
      await txHost.withTransaction(() => publisher.publish(batch));
      const committed = performance.now();
      for (const e of batch) publishedAt.set(e.id, committed);
      await new Promise((resolve) => setTimeout(resolve, Number(values['pace-ms'])));
    }
    while (latencies.length < steady.length * endpoints) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const steadyRate = (steady.length * endpoints * 1000) / (performance.now() - steadyStart);
    const paced = percentiles(latencies);

    // ceiling: the same client, signed bodies, straight to the receiver
    const http = new OutboundHttp(
      { allowedPrivateAddresses: ['127.0.0.1'], allowPrivateNetworks: false },
      10_000,
    );
    const secret = newWebhookSecret();
    const ceilingRun = (count: number) => {
      let next = 0;
      return Promise.all(
        Array.from({ length: endpoints * concurrency }, async () => {
          while (next < count) {
            const e = all[next++ % events];
            const body = JSON.stringify(e);
            const result = await http.post(url, body, {
              ...signWebhook(e.id, new Date(), body, [secret]),
            });
            if (result.status !== 204) throw new Error(`ceiling: ${result.status} ${result.error}`);
          }
        }),
      );
    };
    await ceilingRun(warmupEvents * endpoints);
    received.length = 0;
    const ceilingMeter = cpuMeter({});
    const ceilingStart = performance.now();
    await ceilingRun(total);
    const ceilingSeconds = (performance.now() - ceilingStart) / 1000;
    const ceilingCpu = ceilingMeter.end();
    if (process.env.BENCH_WINDOWS) {
      process.stderr.write(
        `ceiling window: ${(ceilingStart / 1000).toFixed(2)}-${(performance.now() / 1000).toFixed(2)} s\n`,
      );
    }
    const perDelivery = (ms: number | null | undefined) =>
      ms === null || ms === undefined ? '?' : `${Math.round((ms * 1000) / total)} µs`;
    http.close();

    print(
      `webhooks: ${events} events × ${endpoints} endpoints (${total} deliveries), concurrency ${concurrency}/endpoint`,
    );
    print(
      `  delivered: ${Math.round(total / deliverySeconds)} deliveries/s (${deliverySeconds.toFixed(2)} s)`,
    );
    print(
      `  published in ${publishSeconds.toFixed(2)} s (${receivedWhilePublishing} delivered meanwhile)`,
    );
    print(`  end-to-end in the burst (commit → receipt): p50 ${burst.p50} ms, p99 ${burst.p99} ms`);
    print(
      `  end-to-end, ${steadyBatch} event(s) every ${values['pace-ms']} ms (${Math.round(steadyRate)} deliveries/s): ` +
        `p50 ${paced.p50} ms, p99 ${paced.p99} ms`,
    );
    print(
      `  ceiling, same client posting signed bodies directly: ${Math.round(total / ceilingSeconds)} requests/s`,
    );
    print(
      `  event-loop delay in the burst: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, ` +
        `p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
    );
    print(
      `  CPU per delivery in the burst: this process ${perDelivery(burstCpu.self)}, ` +
        `PostgreSQL ${perDelivery(burstCpu.postgres)}; ` +
        `ceiling: this process ${perDelivery(ceilingCpu.self)}; ` +
        `machine busy ${Math.round((burstCpu.busyShare ?? 0) * 100)} % / ${Math.round((ceilingCpu.busyShare ?? 0) * 100)} %`,
    );
  } finally {
    await ctx.close();
    server.closeAllConnections();
    server.close();
  }
}

function percentiles(values: number[]): { p50: string; p99: string } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5).toFixed(1), p99: at(0.99).toFixed(1) };
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}
