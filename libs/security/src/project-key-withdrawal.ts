/**
 * Project key pairs withdrawn at once (docs/architecture.md § Withdrawn permissions at once):
 * analytics authenticates a pair from its in-memory copy of org's `org.project.keys.changed`,
 * which lags; org therefore also deny-lists a deleted pair, or every pair of a deleted project,
 * with the `RevocationList` before its command commits, and analytics checks that deny-list on
 * every request. The ids below are the deny-list entries both sides compute.
 */

/**
 * How long a withdrawal stays deny-listed, seconds: far longer than analytics takes to apply the
 * key event (it then forgets the pair itself), NATS outages included.
 */
export const PROJECT_KEY_WITHDRAWAL_TTL_SECONDS = 7 * 24 * 3600;

/** The deny-list token id of one key pair (pairs never change: the public key names one). */
export function projectKeyTokenId(publicKey: string): string {
  return `project-key:${publicKey}`;
}

/** The deny-list session id of every key pair of a project (the project is deleted). */
export function projectKeysSessionId(projectId: number): string {
  return `project-keys:${projectId}`;
}
