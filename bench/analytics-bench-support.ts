import * as hdr from 'hdr-histogram-js';
import { type Pool } from 'undici';

/** Latency recorder (microsecond resolution, reported in ms). */
export function histogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 120_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

export function ms(h: ReturnType<typeof histogram>, q: number): string {
  return (h.getValueAtPercentile(q) / 1000).toFixed(2);
}

export function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Open-loop load: requests start on a fixed schedule (`rate` per second) whatever the answers
 * do, and latency is measured from the scheduled start, so a slow server cannot hide its queue
 * (no coordinated omission). Bounded by `durationMs`; stops by itself.
 */
export async function openLoop(
  pool: Pool,
  rate: number,
  durationMs: number,
  request: (i: number) => { path: string; headers: Record<string, string> },
): Promise<{
  latency: ReturnType<typeof histogram>;
  sent: number;
  errors: number;
  elapsedMs: number;
}> {
  const latency = histogram();
  const interval = 1000 / rate;
  const start = performance.now();
  const total = Math.floor((durationMs / 1000) * rate);
  let errors = 0;
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { path, headers } = request(i);
    inflight.push(
      pool
        .request({ method: 'GET', path, headers })
        .then(async (res) => {
          await res.body.text();
          if (res.statusCode !== 200) errors++;
        })
        .catch(() => {
          errors++;
        })
        .finally(() =>
          latency.recordValue(Math.max(1, Math.round((performance.now() - scheduled) * 1000))),
        ),
    );
  }
  await Promise.all(inflight);
  return { latency, sent: total, errors, elapsedMs: performance.now() - start };
}
