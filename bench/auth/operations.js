// The auth suite's operations: one request each, resolving true for the expected answer.
'use strict';
const { request } = require('../lib/load.js');
const { PASSWORD } = require('./users.js');

function jwksOp({ pool }) {
  return async () => {
    const res = await request(pool, { path: '/v1/api/oauth/jwks.json', raw: true });
    return res.status === 200 || `status ${res.status}`;
  };
}

/**
 * The shared request path without argon2: GET jwks.json and POST /oauth/token with no password
 * (400 at validation), alternately.
 */
function requestPathOp({ pool, apiKey }) {
  const jwks = jwksOp({ pool });
  let i = 0;
  return async () => {
    if (i++ % 2 === 0) return jwks();
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token',
      headers: { 'api-key': apiKey },
      body: { username: 'warm-up@example.com' },
      raw: true,
    });
    return res.status === 400 || `status ${res.status}`;
  };
}

function tokenInfoOp({ pool, apiKey, users }) {
  let i = 0;
  return async () => {
    const user = users[i++ % users.length];
    const res = await request(pool, {
      path: '/v1/api/oauth/token/info',
      headers: { 'api-key': apiKey, authorization: `Bearer ${user.accessToken}` },
      raw: true,
    });
    return res.status === 200 || `status ${res.status}`;
  };
}

function loginOp({ pool, apiKey, users }) {
  let i = 0;
  return async () => {
    const user = users[i++ % users.length];
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token',
      headers: { 'api-key': apiKey },
      body: { username: user.username, password: PASSWORD },
      raw: true,
    });
    return res.status === 200 || `status ${res.status}`;
  };
}

/**
 * Refresh with token chains: each chain is one session whose latest refresh token is rotated by
 * every request. In the closed loop worker i owns chain i; in the open loop a request takes a
 * free chain (waiting, inside its measured latency, if all are busy) and gives it back. A chain
 * answered with an error is dropped.
 */
function refreshOp({ pool, apiKey }, chains) {
  const free = [...chains];
  const waiting = [];
  const take = () =>
    free.length > 0 ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r));
  const give = (chain) => {
    const next = waiting.shift();
    if (next) next(chain);
    else free.push(chain);
  };
  const rotate = async (chain) => {
    const res = await request(pool, {
      method: 'POST',
      path: '/v1/api/oauth/token/refresh',
      headers: { 'api-key': apiKey },
      body: { refresh_token: chain.refreshToken },
    });
    if (res.status !== 200) {
      chain.dead = true;
      return `status ${res.status} ${res.json?.errors?.[0]?.code ?? ''}`.trim();
    }
    chain.refreshToken = res.json.data.attributes.refreshToken;
    return true;
  };
  return async ({ worker }) => {
    if (worker !== null) {
      const chain = chains[worker];
      if (chain.dead) throw new Error('chain dead after an earlier error');
      return rotate(chain);
    }
    const chain = await take();
    try {
      return await rotate(chain);
    } finally {
      if (!chain.dead) give(chain);
    }
  };
}

module.exports = { jwksOp, requestPathOp, tokenInfoOp, loginOp, refreshOp };
