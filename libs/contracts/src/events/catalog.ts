import type { z } from 'zod';
import {
  ActivityRecorded,
  UserActivated,
  UserRegistered,
  UserTwoFactorChanged,
  UserUpdated,
} from './auth.events.js';
import { AuditRecorded } from './audit.events.js';
import { NotificationRequested } from './notify.events.js';
import {
  MembershipChanged,
  OrganizationCreated,
  OrganizationDeleted,
  OrganizationUpdated,
  ProjectCreated,
  ProjectDeleted,
  ProjectKeysChanged,
  ProjectUpdated,
  SentinelPassChanged,
  WebhookSubscriptionsChanged,
} from './org.events.js';
import { OrganizationSsoChanged, SsoSignedIn } from './sso.events.js';
import { TransactionPosted, TransferRequestChanged, WalletCreated } from './wallet.events.js';

/**
 * Every event subject with its payload schema (docs/architecture.md § Data ownership and events).
 * Subjects follow `<service>.<aggregate>.<past-tense-event>`; the first segment names the JetStream
 * stream.
 */
export const EVENT_CATALOG = {
  'auth.user.registered': UserRegistered,
  'auth.user.activated': UserActivated,
  'auth.user.updated': UserUpdated,
  'auth.user.two_factor_changed': UserTwoFactorChanged,
  'auth.activity.recorded': ActivityRecorded,
  'auth.audit.recorded': AuditRecorded,
  'auth.sso.signed_in': SsoSignedIn,
  'org.organization.created': OrganizationCreated,
  'org.organization.updated': OrganizationUpdated,
  'org.organization.deleted': OrganizationDeleted,
  'org.project.created': ProjectCreated,
  'org.project.updated': ProjectUpdated,
  'org.project.deleted': ProjectDeleted,
  'org.project.keys.changed': ProjectKeysChanged,
  'org.membership.changed': MembershipChanged,
  'org.sentinel_pass.changed': SentinelPassChanged,
  'org.webhook_subscriptions.changed': WebhookSubscriptionsChanged,
  'org.activity.recorded': ActivityRecorded,
  'org.organization_sso.changed': OrganizationSsoChanged,
  'wallet.wallet.created': WalletCreated,
  'wallet.transaction.posted': TransactionPosted,
  'wallet.transfer_request.changed': TransferRequestChanged,
  'wallet.activity.recorded': ActivityRecorded,
  'wallet.audit.recorded': AuditRecorded,
  'notify.requested': NotificationRequested,
} as const;

export type EventSubject = keyof typeof EVENT_CATALOG;
export type EventPayload<S extends EventSubject> = z.infer<(typeof EVENT_CATALOG)[S]>;

/** The streams, one per producing service: name → subject filter (without namespace). */
export const EVENT_STREAMS = {
  AUTH: 'auth.>',
  ORG: 'org.>',
  WALLET: 'wallet.>',
  NOTIFY: 'notify.>',
} as const;
export type EventStream = keyof typeof EVENT_STREAMS;

/** The stream that carries a subject. */
export function streamOf(subject: EventSubject): EventStream {
  const head = subject.slice(0, subject.indexOf('.'));
  return head.toUpperCase() as EventStream;
}

/** What travels on the wire: the outbox row id is the event id and the `Nats-Msg-Id`. */
export interface EventEnvelope<S extends EventSubject = EventSubject> {
  id: string;
  subject: S;
  occurredAt: string;
  payload: EventPayload<S>;
}
