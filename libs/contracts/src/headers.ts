/** HTTP header names of the contract (§ "Authentication") and of ARCHITECTURE.md. */
export const HEADERS = {
  apiKey: 'api-key',
  authorization: 'authorization',
  adminAccess: 'admin-access',
  requestId: 'x-request-id',
  idempotencyKey: 'idempotency-key',
} as const;
