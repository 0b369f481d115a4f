// Registers the auth suite's accounts through the gateway (each registration answers a session).
'use strict';
const { availableParallelism } = require('node:os');
const { request } = require('../lib/load.js');
const { progress } = require('../lib/report.js');

const USERS = 96; // registered up front; each registration also opens a session
const PASSWORD = 'bench-Passw0rd-long-enough';

/** Registers USERS accounts (no activation) through the gateway; each answer is a session. */
async function registerUsers({ pool, apiKey }) {
  progress(`registering ${USERS} users…`);
  const t0 = Date.now();
  const users = [];
  const suffix = Date.now().toString(36);
  let next = 0;
  const lane = async () => {
    while (next < USERS) {
      const i = next++;
      const username = `bench-${suffix}-${i}@example.com`;
      const res = await request(pool, {
        method: 'POST',
        path: '/v1/api/users',
        headers: { 'api-key': apiKey },
        body: { username, password: PASSWORD },
      });
      if (res.status !== 200) {
        throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.json)}`);
      }
      const a = res.json.data.attributes;
      users[i] = { username, accessToken: a.accessToken, refreshToken: a.refreshToken };
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() * 2 }, lane));
  progress(`  ${USERS} users registered in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return users;
}

module.exports = { PASSWORD, registerUsers };
