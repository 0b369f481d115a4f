// The requests deploy/compose-check.sh sends to a booted docker-compose.yml, through the gateway
// only (deploy/README.md § Compose boot check): the README's curl walk (README § Walk the first
// path with curl: sign up, activation code from the mail catcher, organization, its wallet), a
// transfer (docs/wallet.md: an Admin-Access credit, then `POST /wallets/transact` to a member of
// another account), and a logged-out token refused by the org and wallet services (docs/auth.md:
// the deny-list every service reads). Node 20+; no dependencies.
// Environment: GW (gateway origin, e.g. http://127.0.0.1:8080), MAIL (Mailpit's, or the
// stand-in's, HTTP origin), API_KEY, ADMIN_ACCESS_TOKEN; SUMMARY_FILE gets "passed failed".
// Exit code: 0 when every check passed, 1 otherwise.
import { writeFileSync } from 'node:fs';

const { GW, MAIL, API_KEY, ADMIN_ACCESS_TOKEN, SUMMARY_FILE } = process.env;
const api = `${GW}/v1/api`;
const run = Date.now().toString(36);
const password = 'correct horse battery';
let passed = 0;
let failed = 0;

function check(ok, what, detail) {
  if (ok) passed += 1;
  else failed += 1;
  console.log(
    `${ok ? 'ok    ' : 'FAILED'} ${what}${ok || detail === undefined ? '' : `: ${detail}`}`,
  );
  return ok;
}

async function request(method, path, { token, body, headers = {} } = {}) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      'api-key': API_KEY,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text: text.slice(0, 300) };
}

async function waitFor(what, probe, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The 6-digit code of the newest mail to `address` (Mailpit's API: /api/v1/messages). */
async function activationCode(address) {
  return waitFor(`the activation mail to ${address}`, async () => {
    const list = await (await fetch(`${MAIL}/api/v1/messages`)).json();
    const mail = list.messages.find((m) => m.To.some((t) => t.Address === address));
    return mail && /\b(\d{6})\b/.exec(mail.Subject)?.[1];
  });
}

/** Signs up and activates with the mailed code; the session's access token. */
async function signUp(username) {
  const created = await request('POST', '/users', { body: { username, password } });
  check(
    created.status === 201 && created.body?.activationRequired === true,
    `POST /users ${username} → 201 activationRequired`,
    `${created.status} ${created.text}`,
  );
  const code = await activationCode(username);
  check(/^\d{6}$/.test(code), `activation code for ${username} arrived by mail`);
  const activated = await request('POST', `/users/${created.body.user_id}/activate/email`, {
    body: { code },
  });
  const token = activated.body?.data?.attributes?.accessToken;
  check(
    activated.status === 200 && typeof token === 'string',
    'activate → 200 session',
    `${activated.status} ${activated.text}`,
  );
  return token;
}

async function wallets(token, type) {
  const res = await request('GET', `/wallets?entity_type=${type}`, { token });
  return res.status === 200 ? res.body.data : undefined;
}

async function walk() {
  // The gateway reads Swagger UI's files from node_modules at start and serves them on /docs.
  const docs = await fetch(`${GW}/docs/assets/swagger-ui-bundle.js`);
  check(docs.status === 200, 'GET /docs/assets/swagger-ui-bundle.js → 200', String(docs.status));
  const founder = await signUp(`ada-${run}@example.com`);
  const org = await request('POST', '/organizations', {
    token: founder,
    body: { data: { type: 'organization', attributes: { name: `Acme ${run}` } } },
  });
  check(org.status === 200, 'POST /organizations → 200', `${org.status} ${org.text}`);
  const orgWallet = await waitFor('the organization wallet', async () =>
    (await wallets(founder, 'organization'))?.find((w) => w.entity_id === org.body.data.id),
  );
  check(
    Boolean(orgWallet.address_hash),
    'the organization wallet exists (org.organization.created)',
  );

  const payee = await signUp(`grace-${run}@example.com`);
  const [payeeWallet] = await waitFor('the payee wallet', async () => {
    const list = await wallets(payee, 'user');
    return list?.length ? list : undefined;
  });
  const credited = await request('POST', `/wallets/${orgWallet.address_hash}/credits`, {
    token: founder,
    headers: { 'admin-access': ADMIN_ACCESS_TOKEN },
    body: { credit: { amount: 500, description: 'seed', reference_id: `seed-${run}` } },
  });
  check(
    credited.status === 201,
    'Admin-Access credit → 201',
    `${credited.status} ${credited.text}`,
  );
  const paid = await request('POST', '/wallets/transact', {
    token: founder,
    headers: { 'idempotency-key': `compose-check-${run}` },
    body: {
      transaction: {
        from_wallet: orgWallet.address_hash,
        to_wallet: payeeWallet.address_hash,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 120.5,
        description: 'compose check',
      },
    },
  });
  check(
    paid.status === 201 && paid.body?.transaction?.balance_after === 379.5,
    'transfer org → member: 201, balance_after 379.5',
    `${paid.status} ${paid.text}`,
  );
  const seen = await request('GET', `/wallets/${payeeWallet.address_hash}`, { token: payee });
  check(
    seen.body?.wallet?.balance === 120.5,
    'the member sees balance 120.5',
    `${seen.status} ${seen.text}`,
  );

  const before = await request('GET', '/organizations', { token: founder });
  check(
    before.status === 200,
    'GET /organizations with the token → 200',
    `${before.status} ${before.text}`,
  );
  const revoked = await request('GET', '/oauth/token/revoke', { token: founder });
  check(
    revoked.status === 200,
    'GET /oauth/token/revoke (auth) → 200',
    `${revoked.status} ${revoked.text}`,
  );
  for (const [service, path] of [
    ['org', '/organizations'],
    ['wallet', '/wallets?entity_type=organization'],
  ]) {
    const refused = await waitFor(
      `${service} to refuse the revoked token`,
      async () => {
        const res = await request('GET', path, { token: founder });
        return res.status === 401 ? res : undefined;
      },
      10_000,
    ).catch((error) => ({ status: String(error.message) }));
    check(
      refused.status === 401,
      `the revoked token is refused by ${service} (GET ${path} → 401)`,
      refused.status,
    );
  }
}

try {
  await walk();
} catch (error) {
  check(false, 'walk', error instanceof Error ? error.message : String(error));
}
console.log(`walk: ${passed} checks passed, ${failed} failed`);
if (SUMMARY_FILE) writeFileSync(SUMMARY_FILE, `${passed} ${failed}\n`);
process.exitCode = failed === 0 ? 0 : 1;
