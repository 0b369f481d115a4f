import type { Middleware } from 'openapi-fetch';
import type { PathsWith } from './operations.js';

/**
 * The money movements (POST): each request the SDK sends to one of them carries an
 * `Idempotency-Key` — the caller's, or one the SDK makes — kept across the SDK's own retries,
 * so a retry after a 503 or a lost answer settles the movement exactly once
 * (docs/wallet.md § Idempotency; the platform deduplicates transact by the key and debits and
 * credits by `reference_id`, which the SDK's `debit`/`credit` set to the same key).
 */
export const MONEY_MOVEMENTS = [
  '/v1/api/wallets/transact',
  '/v1/api/wallets/{addressHash}/debits',
  '/v1/api/wallets/{addressHash}/credits',
  '/v1/api/wallet_transfers',
  '/v1/api/wallet_transfers/{transferId}/verify_sender',
  '/v1/api/wallet_transfers/{transferId}/accept',
  '/v1/api/wallet_transfers/{transferId}/reject',
] as const satisfies readonly PathsWith<'post'>[];

const MOVEMENTS: ReadonlySet<string> = new Set(MONEY_MOVEMENTS);

/**
 * A new idempotency key: a random UUID (RFC 9562 version 4), from `crypto.randomUUID` where
 * there is one, else from `crypto.getRandomValues` (browsers outside secure contexts).
 */
export function newIdempotencyKey(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto.randomUUID === 'function') return webCrypto.randomUUID();
  const bytes = webCrypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** openapi-fetch middleware: adds an `Idempotency-Key` to a money movement that has none. */
export const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method !== 'POST' || !MOVEMENTS.has(schemaPath)) return undefined;
    if (request.headers.has('idempotency-key')) return undefined;
    const headers = new Headers(request.headers);
    headers.set('Idempotency-Key', newIdempotencyKey());
    return new Request(request, { headers });
  },
};
