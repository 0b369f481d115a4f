import { Webhook } from 'standardwebhooks';
import type { ApiClient } from './api.js';
import type { AnswerBody, QueryOf, RequestBody } from './operations.js';
import { cursorPages, type Paginator } from './paging.js';

const ENDPOINTS = '/v1/api/organizations/{organizationId}/webhook_endpoints' as const;
const ENDPOINT = '/v1/api/organizations/{organizationId}/webhook_endpoints/{endpointId}' as const;

type Item<L> = L extends { data: readonly (infer T)[] } ? T : never;

/** A webhook endpoint document (`GET …/webhook_endpoints/{id}`). */
export type WebhookEndpointDocument = AnswerBody<typeof ENDPOINT, 'get'>;
/** Create and rotate answers: the endpoint and its signing secret in `meta.secret`. */
export type WebhookEndpointWithSecret = AnswerBody<typeof ENDPOINTS, 'post'>;
/** Attributes of a new endpoint: `url`, `eventTypes`, optional `description`, `projectId`, `enabled`. */
export type NewWebhookEndpoint = RequestBody<typeof ENDPOINTS, 'post'>['data']['attributes'];
/** Changes of an endpoint: any of `url`, `description`, `eventTypes`, `enabled`. */
export type WebhookEndpointChanges = RequestBody<typeof ENDPOINT, 'patch'>['data']['attributes'];
/** Filters of an endpoint's delivery log (`status`, `event_type`, `since`, `limit`). */
export type WebhookDeliveryQuery = Omit<QueryOf<`${typeof ENDPOINT}/deliveries`, 'get'>, 'cursor'>;
/** One delivery with its attempts. */
export type WebhookDelivery = Item<AnswerBody<`${typeof ENDPOINT}/deliveries`, 'get'>>;

/** What a receiver gets as the body of a webhook (docs/org.md § Webhooks; the catalog names `type`s). */
export interface WebhookEvent {
  id: string;
  type: string;
  version: number;
  timestamp: string;
  organization_id: string;
  project_id: string | null;
  actor: { type: 'user' | 'agent' | 'system'; id: string | null } | null;
  data: Record<string, unknown>;
}

/**
 * Verifies a webhook request as the platform signs it (Standard Webhooks, with the
 * `standardwebhooks` library): the `webhook-signature` must be a valid HMAC of `webhook-id`,
 * `webhook-timestamp` and the raw body under `secret` (`whsec_…`), and the timestamp within
 * 5 minutes of now. Pass the body exactly as received (a string or bytes, not re-serialized JSON).
 * @returns the parsed event
 * @throws Error (`WebhookVerificationError` of standardwebhooks) when it does not verify
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): WebhookEvent {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (flat[name.toLowerCase()] = value));
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined)
        flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, flat) as WebhookEvent;
}

/**
 * An organization's webhook endpoints and their deliveries (docs/org.md § Webhooks, API):
 * `sdk.webhooks.create(orgId, { url, eventTypes: ['member.*'] })` answers the signing secret
 * once (`meta.secret`); keep it to {@link verifyWebhook} what arrives.
 */
export class WebhookEndpoints {
  constructor(private readonly api: ApiClient) {}

  async list(organizationId: number) {
    return (await this.api.GET(ENDPOINTS, { params: { path: { organizationId } } })).body;
  }

  async create(
    organizationId: number,
    attributes: NewWebhookEndpoint,
  ): Promise<WebhookEndpointWithSecret> {
    const { body } = await this.api.POST(ENDPOINTS, {
      params: { path: { organizationId } },
      body: { data: { type: 'webhook_endpoints', attributes } },
    });
    return body;
  }

  async get(organizationId: number, endpointId: string): Promise<WebhookEndpointDocument> {
    return (await this.api.GET(ENDPOINT, { params: { path: { organizationId, endpointId } } }))
      .body;
  }

  async update(organizationId: number, endpointId: string, attributes: WebhookEndpointChanges) {
    const { body } = await this.api.PATCH(ENDPOINT, {
      params: { path: { organizationId, endpointId } },
      body: { data: { type: 'webhook_endpoints', attributes } },
    });
    return body;
  }

  async delete(organizationId: number, endpointId: string): Promise<void> {
    await this.api.DELETE(ENDPOINT, { params: { path: { organizationId, endpointId } } });
  }

  /** A new secret (`meta.secret`); the previous one keeps signing during the overlap. */
  async rotateSecret(
    organizationId: number,
    endpointId: string,
  ): Promise<WebhookEndpointWithSecret> {
    const { body } = await this.api.POST(`${ENDPOINT}/rotate_secret`, {
      params: { path: { organizationId, endpointId } },
    });
    return body;
  }

  /** Sends a `ping`; answers the queued delivery. */
  async test(organizationId: number, endpointId: string) {
    const { body } = await this.api.POST(`${ENDPOINT}/test`, {
      params: { path: { organizationId, endpointId } },
    });
    return body;
  }

  /** The endpoint's deliveries, newest first, each with its attempts (cursor pages). */
  deliveries(
    organizationId: number,
    endpointId: string,
    query: WebhookDeliveryQuery = {},
  ): Paginator<WebhookDelivery> {
    return cursorPages(async (cursor) => {
      const { body } = await this.api.GET(`${ENDPOINT}/deliveries`, {
        params: {
          path: { organizationId, endpointId },
          query: { ...query, ...(cursor ? { cursor } : {}) },
        },
      });
      return { items: body.data, next: body.meta.next_cursor };
    });
  }

  async resend(organizationId: number, endpointId: string, deliveryId: string) {
    const { body } = await this.api.POST(`${ENDPOINT}/deliveries/{deliveryId}/resend`, {
      params: { path: { organizationId, endpointId, deliveryId } },
    });
    return body;
  }

  /** Queues what the endpoint missed since `since`; `meta.more` says to call again. */
  async replay(organizationId: number, endpointId: string, since: Date | string) {
    const { body } = await this.api.POST(`${ENDPOINT}/replay`, {
      params: { path: { organizationId, endpointId } },
      body: { since: typeof since === 'string' ? since : since.toISOString() },
    });
    return body;
  }
}
