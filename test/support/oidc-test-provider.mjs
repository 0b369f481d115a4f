// A real OpenID provider for tests: `oidc-provider` (the certified Node OP) with its development
// login and consent pages, on a free loopback port. Run with Node:
//   node oidc-test-provider.mjs '<json>'   json = {clientId, clientSecret, redirectUris, accounts}
// where accounts maps a login to its claims ({email, email_verified, name}). Prints one line,
// {"issuer": "http://127.0.0.1:<port>"}, once it listens. Faults for refusal tests, switched by
// `POST /__test/faults` with a JSON body: `wrongKeys` (the JWKS it publishes has the signing key's
// kid but another key, so every ID token's signature fails) and `nonce` (the nonce of the next
// authorization requests is replaced by this value, so the ID token carries a nonce the relying
// party did not send). Ends when stdin closes (its parent is gone).
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2]);
const faults = { wrongKeys: false, nonce: null };

const signing = await generateKeyPair('RS256', { extractable: true });
const other = await generateKeyPair('RS256', { extractable: true });
const privateJwk = {
  ...(await exportJWK(signing.privateKey)),
  kid: 'k1',
  alg: 'RS256',
  use: 'sig',
};
const wrongPublicJwk = {
  ...(await exportJWK(other.publicKey)),
  kid: 'k1',
  alg: 'RS256',
  use: 'sig',
};

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options.clientId,
      client_secret: options.clientSecret,
      redirect_uris: options.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
  jwks: { keys: [privateJwk] },
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  conformIdTokenClaims: false,
  async findAccount(_ctx, id) {
    const claims = options.accounts[id];
    if (!claims) return undefined;
    return { accountId: id, claims: () => ({ sub: id, ...claims }) };
  },
});

const handler = provider.callback();
server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  if (req.method === 'POST' && url.pathname === '/__test/faults') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      Object.assign(faults, JSON.parse(body));
      res.writeHead(204).end();
    });
    return;
  }
  if (faults.wrongKeys && url.pathname === '/jwks') {
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
    res.end(JSON.stringify({ keys: [wrongPublicJwk] }));
    return;
  }
  if (faults.nonce && url.pathname === '/auth' && url.searchParams.has('nonce')) {
    url.searchParams.set('nonce', faults.nonce);
    req.url = `${url.pathname}${url.search}`;
  }
  handler(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
