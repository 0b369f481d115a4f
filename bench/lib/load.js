// The load generators of every bench (one implementation; TypeScript benches use it through
// load.d.ts). An operation is `async (ctx) => true | string | false` (true = success, a string
// names the failure): it sends one request (or waits for a free virtual client first) and
// consumes the answer; `httpOperation` makes one from a request factory.
//
// - closedLoop: `connections` workers, each sending its next request as soon as the previous one
//   answered, for `durationMs`. Measures maximum throughput; its latencies are NOT service
//   latencies (a slow answer delays the next send: coordinated omission), so they are reported
//   only as "closed-loop latency" if at all.
// - openLoop: a fixed arrival rate, independent of answers. Each request has a scheduled send
//   time (start + i / rate) and its latency is measured from that time, so a stall of the
//   service (or of this process) shows up in the percentiles instead of silently lowering the
//   rate (no coordinated omission). `lag` is how late sends left compared to schedule: a large lag
//   means this process, not the service, was the bottleneck.
'use strict';
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const { newHistogram, recordMs, percentiles } = require('./stats.js');

/** An undici Pool to `origin` with bounded timeouts (a bench must end by itself). */
function httpPool(origin, connections) {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
    connectTimeout: 5_000,
  });
}

/**
 * One request; resolves `{status, json}` (json undefined when the body is not JSON) or
 * `{status, text}` with `{raw: true}`.
 */
async function request(pool, { method = 'GET', path, headers = {}, body, raw = false }) {
  const res = await pool.request({
    method,
    path,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (raw) {
    await res.body.dump();
    return { status: res.statusCode };
  }
  const text = await res.body.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

/**
 * The operation that sends `next()` (a `{method, path, headers, body}` request) on `pool` and
 * drops the body: true for a 2xx answer, else `HTTP <status>` (the failure's name).
 */
function httpOperation(pool, next) {
  return async () => {
    const { status } = await request(pool, { ...next(), raw: true });
    return status >= 200 && status < 300 ? true : `HTTP ${status}`;
  };
}

/** Counts outcomes and keeps the first few error messages (for the printed report). */
class Outcomes {
  constructor() {
    this.ok = 0;
    this.errors = 0;
    this.samples = new Map();
  }
  success() {
    this.ok++;
  }
  failure(reason) {
    this.errors++;
    const key = String(reason).slice(0, 160);
    if (this.samples.size < 5 || this.samples.has(key)) {
      this.samples.set(key, (this.samples.get(key) || 0) + 1);
    }
  }
  note(outcome) {
    if (outcome === true) this.success();
    else this.failure(outcome === false ? 'unexpected answer' : outcome);
  }
}

/**
 * Closed loop (maximum throughput): `connections` workers, each awaiting `op({worker})` in turn.
 * @returns {{rate, ok, errors, p50, p99, max, elapsedMs, errorSamples}} rate = successes/s
 */
async function closedLoop({ op, connections, durationMs }) {
  const histogram = newHistogram();
  const outcomes = new Outcomes();
  const start = performance.now();
  const end = start + durationMs;
  const worker = async (index) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        outcomes.note(await op({ worker: index }));
      } catch (error) {
        outcomes.failure(error.message || error);
      }
      recordMs(histogram, performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
  const elapsedMs = performance.now() - start;
  return {
    mode: 'closed',
    rate: outcomes.ok / (elapsedMs / 1000),
    ok: outcomes.ok,
    errors: outcomes.errors,
    ...percentiles(histogram),
    elapsedMs,
    errorSamples: [...outcomes.samples],
  };
}

/**
 * Open loop (latency at a fixed arrival rate): `rate` requests/s for `durationMs`, latency from
 * each request's scheduled send time. After the last send, waits up to `drainMs` for answers;
 * requests still open then count as errors (`timeout`) and their latency as the drain deadline.
 * @returns {{rate, target, ok, errors, p50, p99, max, lagP99, errorSamples}} rate = successes/s
 *   from the first send to the last answer
 */
async function openLoop({ op, rate, durationMs, drainMs = 10_000 }) {
  const histogram = newHistogram();
  const lag = newHistogram();
  const outcomes = new Outcomes();
  const interval = 1000 / rate;
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const open = new Set();
  let sent = 0;
  const start = performance.now();

  const fire = (scheduled) => {
    const entry = { scheduled };
    open.add(entry);
    let promise;
    try {
      promise = Promise.resolve(op({ worker: null }));
    } catch (error) {
      promise = Promise.reject(error);
    }
    const settle = (outcome) => {
      if (!open.delete(entry)) return; // already counted as a timeout
      recordMs(histogram, performance.now() - scheduled);
      outcomes.note(outcome);
    };
    promise.then(settle, (error) => settle(String(error?.message || error)));
  };

  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        const scheduled = start + sent * interval;
        recordMs(lag, now - scheduled);
        sent++;
        fire(scheduled);
      }
      if (sent >= total) return resolve();
      const wait = start + sent * interval - performance.now();
      if (wait > 1) setTimeout(tick, Math.min(wait, 10) - 0.5);
      else setImmediate(tick);
    };
    tick();
  });
  const sendEnd = performance.now();
  const deadline = sendEnd + drainMs;
  while (open.size > 0 && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5));
  }
  const finished = performance.now();
  for (const entry of open) {
    recordMs(histogram, finished - entry.scheduled);
    outcomes.failure('timeout (no answer before the drain deadline)');
  }
  open.clear();
  return {
    mode: 'open',
    target: rate,
    rate: outcomes.ok / ((finished - start) / 1000),
    ok: outcomes.ok,
    errors: outcomes.errors,
    ...percentiles(histogram),
    lagP99: lag.getValueAtPercentile(99) / 1000,
    errorSamples: [...outcomes.samples],
  };
}

module.exports = { httpPool, request, httpOperation, closedLoop, openLoop };
