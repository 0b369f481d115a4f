import type {
  ActivationRequired,
  ProjectKeyPair,
  Registration,
  SessionDocument,
  TokenDocument,
} from './documents.js';
import { invalidResponse } from './errors.js';
import type { Answer } from './operations.js';

/**
 * The places where the OpenAPI document describes a request or an answer differently from what
 * the platform does, each bridged by a small typed adapter instead of a cast; what the document
 * must say instead is listed in docs/api-documentation.md § Client SDK. Each adapter keeps
 * working once the document is right, and can then be removed.
 */

/** A user's session (not an agent's): both tokens are there. */
export function isUserSession(
  document: TokenDocument | ActivationRequired,
): document is SessionDocument {
  return 'data' in document && 'refreshToken' in document.data.attributes;
}

/**
 * `POST /users`: 200 answers a session, 201 the activation-required object (docs/api.md
 * § Activation-required registration response). The document gives both statuses the union of
 * the two bodies; this pairs each status with its body, and refuses an answer where they do not
 * match (`INVALID_RESPONSE`).
 */
export function registrationOf(answer: Answer<'/v1/api/users', 'post'>): Registration {
  const { body } = answer;
  if (answer.status === 200 && isUserSession(body)) return { status: 200, body };
  if (answer.status === 201 && 'activationRequired' in body) return { status: 201, body };
  throw invalidResponse(`POST /users answered ${answer.status} with another status's body`, {
    operation: 'POST /v1/api/users',
    status: answer.status,
    requestId: answer.response.headers.get('x-request-id') ?? undefined,
  });
}

/**
 * The key pair of `GET …/projects/{projectId}?secret=true` (`meta.secrets`, docs/api.md
 * § Project). The document types `meta` as any object; this reads `secrets` and refuses an
 * answer without a well-formed pair (`INVALID_RESPONSE`).
 */
export function keyPairOf(meta: Record<string, unknown> | undefined): ProjectKeyPair {
  const secrets = meta?.['secrets'];
  if (
    typeof secrets === 'object' &&
    secrets !== null &&
    'publicKey' in secrets &&
    'secretKey' in secrets &&
    typeof secrets.publicKey === 'string' &&
    typeof secrets.secretKey === 'string'
  ) {
    return { publicKey: secrets.publicKey, secretKey: secrets.secretKey };
  }
  throw invalidResponse('the project answer has no meta.secrets key pair', {
    operation: 'GET /v1/api/organizations/{organizationId}/projects/{projectId}',
  });
}
