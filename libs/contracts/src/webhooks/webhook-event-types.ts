/**
 * Every public webhook event type (docs/webhooks.md § Event catalog). Names are
 * `<resource>.<past-tense verb>`, lower snake case, as the organization audit log names its
 * actions (docs/org.md § Audit log) where an action exists. Adding a type is a compatible
 * change; renaming or removing one is not.
 */
export const WEBHOOK_EVENT_TYPES = [
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization.security_policy_changed',
  'organization.sso_settings_changed',
  'organization.sso_connection_changed',
  'sso_domain.verified',
  'sso_domain.removed',
  'project.created',
  'project.updated',
  'project.deleted',
  'member.added',
  'member.role_changed',
  'member.removed',
  'member.signed_in_with_sso',
  'member.identity_linked',
  'project_member.added',
  'project_member.role_changed',
  'project_member.removed',
  'project_access.denied',
  'project_access.restored',
  'invitation.created',
  'invitation.accepted',
  'invitation.rejected',
  'invitation.cancelled',
  'api_key.created',
  'api_key.deleted',
  'llm_api_key.created',
  'llm_api_key.deleted',
  'sentinel_pass.created',
  'sentinel_pass.rotated',
  'sentinel_pass.revoked',
  'sentinel_pass.activated',
  'sentinel_pass.deleted',
  'wallet.created',
  'transaction.posted',
  'transfer_request.created',
  'transfer_request.accepted',
  'transfer_request.rejected',
  'transfer_request.expired',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'session.ended',
  'session.others_ended',
  'webhook_endpoint.disabled',
  'ping',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/** The resource prefixes a `<prefix>.*` filter may name (`member`, `transaction`, …). */
export const WEBHOOK_EVENT_PREFIXES: readonly string[] = [
  ...new Set(WEBHOOK_EVENT_TYPES.filter((t) => t.includes('.')).map((t) => prefixOf(t))),
];
const PREFIXES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_PREFIXES);

/** True when `value` is one of {@link WEBHOOK_EVENT_TYPES}. */
export function isWebhookEventType(value: string): value is WebhookEventType {
  return TYPES.has(value);
}

/**
 * Valid filter strings of an endpoint (docs/webhooks.md § Choosing events): `*` (every type),
 * `<prefix>.*` for a known prefix (`member.*` takes `member.added`, `member.role_changed`,
 * `member.removed`, not `project_member.*`), or an exact type. Case-sensitive; nothing else.
 */
export function isValidEventTypeFilter(filter: string): boolean {
  if (filter === '*') return true;
  if (filter.endsWith('.*')) return PREFIXES.has(filter.slice(0, -2));
  return TYPES.has(filter);
}

/**
 * True when an endpoint's filter selects the type: `*` every type, `<prefix>.*` the types of
 * that prefix, an exact type itself; an invalid filter selects nothing. (`ping` is sent only
 * to the endpoint a test was asked for, so no filter decides it.)
 */
export function eventTypeMatches(filter: string, type: WebhookEventType): boolean {
  if (filter === '*') return true;
  if (filter.endsWith('.*')) {
    const prefix = filter.slice(0, -2);
    return PREFIXES.has(prefix) && type.includes('.') && prefixOf(type) === prefix;
  }
  return filter === type;
}

/** True when any of an endpoint's filters selects the type (an empty list selects nothing). */
export function eventTypeSelected(filters: readonly string[], type: WebhookEventType): boolean {
  return filters.some((filter) => eventTypeMatches(filter, type));
}

function prefixOf(type: string): string {
  return type.slice(0, type.indexOf('.'));
}

/**
 * `transactionEvents` of `org.webhook_subscriptions.changed`: true when an enabled endpoint of
 * the organization selects `transaction.posted` (docs/webhooks.md § Transaction events and the
 * transfer path). Org publishes it whenever an endpoint is created, changed, enabled, disabled
 * or deleted.
 */
export function selectsTransactionEvents(
  endpoints: readonly { enabled: boolean; eventTypes: readonly string[] }[],
): boolean {
  return endpoints.some((e) => e.enabled && eventTypeSelected(e.eventTypes, 'transaction.posted'));
}
