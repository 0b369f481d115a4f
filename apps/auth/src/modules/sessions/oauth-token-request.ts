import formbody from '@fastify/formbody';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

const TOKEN_PATH = /\/oauth\/token\/?$/;

/**
 * Lets standard OAuth 2.0 clients call `POST /oauth/token` as RFC 6749 describes, besides the
 * contract's JSON body:
 *
 * - `application/x-www-form-urlencoded` bodies (RFC 6749 § 4.4.2) are parsed
 *   (@fastify/formbody) into the same fields, so they meet the same validation;
 * - client credentials in an HTTP Basic `Authorization` header (RFC 6749 § 2.3.1: the
 *   form-urlencoded `client_id:client_secret`, base64) fill `client_id` / `client_secret` of a
 *   `client_credentials` request when the body carries none. Both in the header and the body:
 *   400 (§ 2.3.1 forbids using more than one method). A malformed header is ignored; the
 *   request then fails validation as without it.
 */
export async function installOAuthTokenRequestParsing(app: NestFastifyApplication): Promise<void> {
  await app.register(formbody as never);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('preHandler', (request, _reply, done) => {
    if (request.method === 'POST' && TOKEN_PATH.test(request.url.split('?')[0] ?? '')) {
      applyBasicClientCredentials(request);
    }
    done();
  });
}

function applyBasicClientCredentials(request: FastifyRequest): void {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^basic /i.test(header)) return;
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  if (fields['grant_type'] !== 'client_credentials') return;
  const credentials = decodeBasic(header.slice(6).trim());
  if (!credentials) return;
  if (fields['client_id'] !== undefined || fields['client_secret'] !== undefined) {
    // Two authentication methods at once: make validation refuse it by name.
    fields['client_id'] = [fields['client_id'], credentials.id];
    return;
  }
  fields['client_id'] = credentials.id;
  fields['client_secret'] = credentials.secret;
}

function decodeBasic(encoded: string): { id: string; secret: string } | undefined {
  if (!/^[A-Za-z0-9+/]+=*$/.test(encoded)) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return {
      id: decodeURIComponent(text.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(text.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return undefined;
  }
}
