import { eventTypeMatches, type WebhookEvent } from '@wp/contracts';

/** What fan-out reads of an endpoint. */
export interface EndpointScope {
  id: string;
  /** The organization's id as the events carry it (a string). */
  organizationId: string;
  /** Null: every project of the organization; set: that project's events only. */
  projectId: string | null;
  /** Filters: `*`, `<prefix>.*`, exact types. */
  eventTypes: readonly string[];
}

/**
 * True when the endpoint receives the event (docs/org.md § Webhooks, Fan-out): same
 * organization; a project-scoped endpoint only events of its project (organization-level events,
 * `project_id` null, are not its business); one of its filters selects the type. `ping` goes
 * only to the endpoint a test was asked for, never by fan-out.
 */
export function endpointSelects(
  endpoint: EndpointScope,
  event: Pick<WebhookEvent, 'type' | 'organization_id' | 'project_id'>,
): boolean {
  if (event.type === 'ping') return false;
  if (endpoint.organizationId !== event.organization_id) return false;
  if (endpoint.projectId !== null && endpoint.projectId !== event.project_id) return false;
  return endpoint.eventTypes.some((filter) => eventTypeMatches(filter, event.type));
}

/** Per event, the endpoints that receive it (pairs), in the order given. */
export function fanOut(
  endpoints: readonly EndpointScope[],
  events: readonly WebhookEvent[],
): { event: WebhookEvent; endpointIds: string[] }[] {
  return events.map((event) => ({
    event,
    endpointIds: endpoints.filter((e) => endpointSelects(e, event)).map((e) => e.id),
  }));
}
