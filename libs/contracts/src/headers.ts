/** HTTP header names of the contract (docs/api.md § Authentication) and of docs/architecture.md. */
export const HEADERS = {
  apiKey: 'api-key',
  authorization: 'authorization',
  adminAccess: 'admin-access',
  requestId: 'x-request-id',
  idempotencyKey: 'idempotency-key',
} as const;
