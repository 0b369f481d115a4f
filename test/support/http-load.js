// Load for start-up tests (test/embedded): `node http-load.js <concurrency> <headers-json> <url>…`
// sends GETs to the URLs in turn from <concurrency> loops until SIGTERM, then prints how often
// each status came back as one JSON line ({"200": n, "503": m, "error": k}). Runs inside the
// test's network namespace, like the curl calls.
'use strict';
const [concurrency, headersJson, ...urls] = process.argv.slice(2);
const headers = JSON.parse(headersJson);
const counts = {};
let stop = false;
process.on('SIGTERM', () => (stop = true));

async function loop(offset) {
  for (let i = offset; !stop; i++) {
    try {
      const res = await fetch(urls[i % urls.length], { headers });
      await res.arrayBuffer();
      counts[res.status] = (counts[res.status] ?? 0) + 1;
    } catch {
      counts.error = (counts.error ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

Promise.all(Array.from({ length: Number(concurrency) }, (_, i) => loop(i))).then(() => {
  process.stdout.write(`${JSON.stringify(counts)}\n`);
});
