// A standard resource server's verification (RFC 9068 § 4), as a third party would write it with
// `jose`: `node jose-resource-server.mjs <jwks-url> <issuer> <audience> <token>...` prints one JSON line,
// [{ "ok": true, "kid": "…", "sub": "…" } | { "ok": false, "error": "…" }, …] in token order.
import { createRemoteJWKSet, jwtVerify } from 'jose';

const [jwksUrl, issuer, audience, ...tokens] = process.argv.slice(2);
const jwks = createRemoteJWKSet(new URL(jwksUrl));
const results = [];
for (const token of tokens) {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer,
      audience,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'client_id'],
      algorithms: ['ES256'],
    });
    results.push({ ok: true, kid: protectedHeader.kid, sub: payload.sub });
  } catch (error) {
    results.push({ ok: false, error: String(error) });
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);
