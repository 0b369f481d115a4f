// Stops what global-setup.js started (README § Tests): the run's own PostgreSQL (its folder
// removed) and containers; removes the run's skip records (the reporter has read them).
const fs = require('node:fs');

module.exports = async () => {
  const started = globalThis.__WP_TEST_SERVERS__ ?? [];
  await Promise.all(started.map((s) => s.stop()));
  if (process.env.TEST_SKIPS_FILE) fs.rmSync(process.env.TEST_SKIPS_FILE, { force: true });
};
