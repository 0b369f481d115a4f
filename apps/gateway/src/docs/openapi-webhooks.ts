import {
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_TYPES,
  webhookEventId,
  type WebhookEvent,
  type WebhookEventType,
} from '@wp/contracts';
import { z } from 'zod';

/** The tag of every webhook operation (declared in the document's `tags`). */
export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description:
    'Events the platform POSTs to the endpoints an organization registers, signed per the ' +
    'Standard Webhooks specification. One entry per event type; the body is the event.',
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description:
      'The event id (the body\'s "id"): the same for every attempt of one event, so a ' +
      'receiver that saw it already acknowledges and ignores it.',
    example: 'evt_5e0f0c7a8f1d4b2a9c3e6d7f8a9b0c1d',
  },
  {
    name: 'webhook-timestamp',
    description:
      'Unix time in seconds when this attempt was signed. Refuse a timestamp more than five ' +
      'minutes from your clock (replay protection).',
    example: '1764316800',
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated signatures "v1,<base64 HMAC-SHA256>" of "<webhook-id>.<webhook-timestamp>.' +
      '<body>" with the endpoint secret (two while a rotated secret overlaps). Verify with a ' +
      'Standard Webhooks library before trusting the body.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

/** `member.role_changed` → `MemberRoleChangedEvent`. */
export function webhookSchemaName(type: WebhookEventType): string {
  const pascal = type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `${pascal}Event`;
}

/** The JSON Schema (2020-12, as OpenAPI 3.1 takes it) of a zod schema, without `$schema`. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = { ...(z.toJSONSchema(schema, { io: 'output' }) as object) } as Record<
    string,
    unknown
  >;
  delete json['$schema'];
  return json;
}

/** The whole body of one event type: the envelope with that type's `data`. */
function envelopeSchema(type: WebhookEventType): Record<string, unknown> {
  const entry = WEBHOOK_EVENT_CATALOG[type];
  return {
    type: 'object',
    description: entry.description,
    additionalProperties: false,
    required: [
      'id',
      'type',
      'version',
      'timestamp',
      'organization_id',
      'project_id',
      'actor',
      'data',
    ],
    properties: {
      id: {
        type: 'string',
        pattern: '^evt_[0-9a-f]{32}$',
        description: 'Unique per event and stable across attempts; equals the webhook-id header.',
      },
      type: { type: 'string', const: type },
      version: {
        type: 'integer',
        const: entry.version,
        description: 'The payload version of this type.',
      },
      timestamp: {
        type: 'string',
        format: 'date-time',
        description: 'When it happened. Events are not delivered in order: order by this.',
      },
      organization_id: { type: 'string', description: 'The organization it belongs to.' },
      project_id: {
        type: ['string', 'null'],
        description: 'The project it concerns, if one: project-scoped endpoints get only these.',
      },
      actor: { $ref: '#/components/schemas/WebhookActor' },
      data: jsonSchema(entry.data),
    },
  };
}

/** An example body of one type: the catalog's example `data` in a filled-in envelope. */
export function webhookExample(type: WebhookEventType): WebhookEvent {
  const data = WEBHOOK_EVENT_CATALOG[type].example;
  const projectId = typeof data['project_id'] === 'string' ? data['project_id'] : null;
  return {
    id: webhookEventId('example', '42', type),
    type,
    version: WEBHOOK_EVENT_CATALOG[type].version,
    timestamp: '2026-11-22T07:30:12.000Z',
    organization_id: '42',
    project_id: projectId,
    actor:
      type === 'transfer_request.expired' ||
      type === 'wallet.created' ||
      type === 'webhook_endpoint.disabled'
        ? { type: 'system', id: null }
        : { type: 'user', id: '0b1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f' },
    data,
  };
}

/**
 * The OpenAPI 3.1 `webhooks` of the platform (docs/webhooks.md § Event catalog): one POST per
 * event type with its body schema (a component per type) and an example, the Standard Webhooks
 * headers, and what the receiver's answer means. Sets `document.webhooks` and adds the
 * schemas (`components.schemas`) and the `Webhooks` tag.
 */
export function addWebhooks(document: {
  tags?: unknown[];
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
}): void {
  const schemas = ((document.components ??= {}).schemas ??= {});
  schemas['WebhookActor'] = {
    type: ['object', 'null'],
    description:
      'Who caused it: a user, a Sentinel Pass agent, or the platform (system); null when unknown.',
    additionalProperties: false,
    required: ['type', 'id'],
    properties: {
      type: { type: 'string', enum: ['user', 'agent', 'system'] },
      id: { type: ['string', 'null'] },
    },
  };
  const webhooks: Record<string, unknown> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const name = webhookSchemaName(type);
    schemas[name] = envelopeSchema(type);
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        summary: `Receive ${type}`,
        description: `${WEBHOOK_EVENT_CATALOG[type].description} Payload version ${WEBHOOK_EVENT_CATALOG[type].version}.`,
        tags: [WEBHOOKS_TAG.name],
        // The platform calls the receiver; the signature headers authenticate the platform.
        security: [],
        parameters: SIGNATURE_HEADERS.map((h) => ({
          name: h.name,
          in: 'header',
          required: true,
          description: h.description,
          schema: { type: 'string' },
          example: h.example,
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${name}` },
              example: webhookExample(type),
            },
          },
        },
        responses: {
          '200': {
            description:
              'Any 2xx within 10 seconds acknowledges the event; nothing of the body is read.',
          },
          '4XX': {
            description:
              'Not acknowledged: the event is sent again later (410 Gone disables the endpoint).',
          },
          '5XX': { description: 'Not acknowledged: the event is sent again later.' },
        },
      },
    };
  }
  (document.tags ??= []).push({ name: WEBHOOKS_TAG.name, description: WEBHOOKS_TAG.description });
  document['webhooks'] = webhooks;
}
