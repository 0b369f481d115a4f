import { TxHost } from '@wp/persistence';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { webhookPingEvent } from '@wp/contracts';
import { AesGcmEnvelope, type Principal } from '@wp/security';
import { ORG_CONFIG, type OrgConfig } from '../../config/org.config.js';
import { ProjectNotFoundError } from '../access/access.errors.js';
import { AccessService } from '../access/access.service.js';
import { EndpointAuditRecorder, endpointAudit, eventTypesDetail } from './endpoint-audit.js';
import { SubscriptionHint } from './subscription-hint.js';
import { urlProblem, type UrlRules } from './url-policy.js';
import { newWebhookSecret } from './webhook-signer.js';
import {
  WebhookEndpointsRepository,
  type EndpointWithCounts,
} from './webhook-endpoints.repository.js';
import {
  urlRefused,
  WebhookEndpointDisabledError,
  WebhookEndpointLimitError,
  WebhookEndpointNotFoundError,
} from './webhooks.errors.js';
import { WebhookPublisher } from './webhook-publisher.js';
import { WebhookEndpoint } from './webhook-tables.js';

/** Most endpoints of one organization. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 50;

export interface NewEndpoint {
  url: string;
  description?: string;
  eventTypes: string[];
  projectId?: number | null;
  enabled?: boolean;
}

export type EndpointChanges = Partial<Omit<NewEndpoint, 'projectId'>>;

/** An endpoint with its signing secret in clear: only the create and rotate answers. */
export interface EndpointWithSecret extends EndpointWithCounts {
  secret: string;
}

/**
 * Webhook endpoints of an organization (docs/org.md § Webhooks, API): OWNER and ADMIN
 * (`organization.manageWebhooks`); a non-member gets 404, another organization's endpoint id
 * 404. URLs are checked against the SSRF rules before anything is written; the secret is sealed
 * at rest and shown only by create and rotate.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly rules: UrlRules;

  constructor(
    private readonly txHost: TxHost,
    private readonly access: AccessService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly publisher: WebhookPublisher,
    private readonly hint: SubscriptionHint,
    private readonly box: AesGcmEnvelope,
    private readonly audit: EndpointAuditRecorder,
    @Inject(ORG_CONFIG) private readonly config: OrgConfig,
  ) {
    this.rules = {
      allowHttp: config.NODE_ENV !== 'production' || config.WEBHOOK_ALLOW_HTTP,
      allowedPrivateAddresses: config.WEBHOOK_ALLOWED_PRIVATE_ADDRESSES,
      allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    };
  }

  /** @throws 404 organization / project; 403; 400 URL refused; 422 `WEBHOOK_ENDPOINT_LIMIT` */
  async create(
    principal: Principal,
    organizationId: number,
    input: NewEndpoint,
  ): Promise<EndpointWithSecret> {
    await this.authorize(principal, organizationId);
    await this.checkUrl(input.url);
    const secret = newWebhookSecret();
    const endpoint = await this.txHost.withTransaction(async () => {
      await this.authorize(principal, organizationId, true);
      if (input.projectId != null) await this.requireProject(organizationId, input.projectId);
      if ((await this.endpoints.count(organizationId)) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
        throw new WebhookEndpointLimitError(MAX_ENDPOINTS_PER_ORGANIZATION);
      }
      const enabled = input.enabled ?? true;
      const created = await this.endpoints.insert(
        Object.assign(new WebhookEndpoint(), {
          id: randomUUID(),
          organizationId,
          projectId: input.projectId ?? null,
          url: input.url,
          description: input.description ?? '',
          eventTypes: [...new Set(input.eventTypes)],
          enabled,
          disabledReason: enabled ? null : 'manual',
          encryptedSecret: this.box.encrypt(secret),
          previousEncryptedSecret: null,
          previousSecretExpiresAt: null,
          failingSince: null,
        }),
      );
      await this.hint.changed(organizationId);
      await this.audit.record(
        principal,
        endpointAudit('webhook_endpoint.created', created, {
          eventTypes: eventTypesDetail(created.eventTypes),
          projectId: created.projectId,
          enabled: created.enabled,
        }),
      );
      return created;
    });
    return { ...(await this.endpoints.withCounts(endpoint)), secret };
  }

  async list(principal: Principal, organizationId: number): Promise<EndpointWithCounts[]> {
    await this.authorize(principal, organizationId);
    return this.endpoints.listWithCounts(organizationId);
  }

  async get(principal: Principal, organizationId: number, id: string): Promise<EndpointWithCounts> {
    await this.authorize(principal, organizationId);
    return this.endpoints.withCounts(await this.require(organizationId, id));
  }

  /** Enabling clears the disabled reason and the failure streak. @throws as create, 404 */
  async update(
    principal: Principal,
    organizationId: number,
    id: string,
    changes: EndpointChanges,
  ): Promise<EndpointWithCounts> {
    await this.authorize(principal, organizationId);
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const endpoint = await this.txHost.withTransaction(async () => {
      const current = await this.lockForChange(principal, organizationId, id);
      const changed = changedFields(current, changes);
      if (changes.url !== undefined) current.url = changes.url;
      if (changes.description !== undefined) current.description = changes.description;
      if (changes.eventTypes !== undefined) current.eventTypes = [...new Set(changes.eventTypes)];
      const toggled = changes.enabled !== undefined && changes.enabled !== current.enabled;
      if (toggled) {
        current.enabled = changes.enabled!;
        current.disabledReason = current.enabled ? null : 'manual';
        current.failingSince = null;
      }
      const saved = await this.endpoints.save(current);
      if (saved.enabled) this.publisher.wakeAfterCommit();
      await this.hint.changed(organizationId);
      if (changed.length > 0) {
        const details: Record<string, string> = { changed: changed.join(',') };
        if (changed.includes('eventTypes')) details.eventTypes = eventTypesDetail(saved.eventTypes);
        await this.audit.record(
          principal,
          endpointAudit('webhook_endpoint.updated', saved, details),
        );
      }
      if (toggled) {
        const action = saved.enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled';
        await this.audit.record(principal, endpointAudit(action, saved));
      }
      return saved;
    });
    return this.endpoints.withCounts(endpoint);
  }

  /** Deletes the endpoint with its deliveries and attempts. */
  async delete(principal: Principal, organizationId: number, id: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const endpoint = await this.lockForChange(principal, organizationId, id);
      await this.endpoints.delete(id);
      await this.hint.changed(organizationId);
      await this.audit.record(principal, endpointAudit('webhook_endpoint.deleted', endpoint));
    });
  }

  /**
   * A new secret; the previous one keeps signing for `WEBHOOK_SECRET_OVERLAP_SECONDS` (receivers
   * switch over meanwhile). A rotation during an overlap ends the older secret at once.
   */
  async rotateSecret(
    principal: Principal,
    organizationId: number,
    id: string,
  ): Promise<EndpointWithSecret> {
    const secret = newWebhookSecret();
    const endpoint = await this.txHost.withTransaction(async () => {
      const current = await this.lockForChange(principal, organizationId, id);
      const overlapMs = this.config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000;
      current.previousEncryptedSecret = overlapMs > 0 ? current.encryptedSecret : null;
      current.previousSecretExpiresAt = overlapMs > 0 ? new Date(Date.now() + overlapMs) : null;
      current.encryptedSecret = this.box.encrypt(secret);
      const saved = await this.endpoints.save(current);
      await this.audit.record(
        principal,
        endpointAudit('webhook_endpoint.secret_rotated', saved, {
          previousSecretValidSeconds: this.config.WEBHOOK_SECRET_OVERLAP_SECONDS,
        }),
      );
      return saved;
    });
    return { ...(await this.endpoints.withCounts(endpoint)), secret };
  }

  /**
   * Queues a `ping` event to this endpoint only, whatever its filters.
   * @returns the delivery id
   * @throws 422 `WEBHOOK_ENDPOINT_DISABLED`
   */
  async test(principal: Principal, organizationId: number, id: string): Promise<string> {
    return this.txHost.withTransaction(async () => {
      await this.authorize(principal, organizationId, true);
      const endpoint = await this.require(organizationId, id);
      if (!endpoint.enabled) throw new WebhookEndpointDisabledError();
      const event = webhookPingEvent({
        requestId: randomUUID(),
        endpointId: endpoint.id,
        organizationId,
        projectId: endpoint.projectId,
        actor: { type: principal.type, id: principal.id },
        at: new Date(),
      });
      return this.publisher.publishTo(event, endpoint.id);
    });
  }

  /**
   * With `lock` (inside a command's boundary) it also takes the organization's row lock in the
   * active transaction: endpoint changes of one organization are serialized (the endpoint
   * limit, the subscription hint's version).
   * @throws OrganizationNotFoundError 404; PermissionDeniedError 403; Error with `lock` when no
   *   transaction is active (a programming error)
   */
  async authorize(principal: Principal, organizationId: number, lock = false): Promise<void> {
    await this.access.organizationWith(principal, organizationId, 'organization.manageWebhooks', {
      lock,
    });
  }

  /**
   * The organization's endpoint, read in the active transaction if any; `lock` takes its row
   * lock (then a transaction must be active).
   * @throws WebhookEndpointNotFoundError 404
   */
  async require(organizationId: number, id: string, lock = false): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(organizationId, id, lock);
    if (!endpoint) throw new WebhookEndpointNotFoundError();
    return endpoint;
  }

  /**
   * Inside the command's boundary: the caller may manage webhooks (the organization's row lock
   * taken), and the endpoint, locked for update.
   * @throws as {@link authorize} and {@link require}
   */
  private async lockForChange(
    principal: Principal,
    organizationId: number,
    id: string,
  ): Promise<WebhookEndpoint> {
    await this.authorize(principal, organizationId, true);
    return this.require(organizationId, id, true);
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, this.rules);
    if (problem !== null) throw urlRefused(problem);
  }

  /** In the active transaction. @throws ProjectNotFoundError 404 */
  private async requireProject(organizationId: number, projectId: number): Promise<void> {
    const rows: unknown[] = await this.txHost.tx.query(
      'SELECT 1 FROM project WHERE id = $1 AND organization_id = $2',
      [projectId, organizationId],
    );
    if (rows.length === 0) throw new ProjectNotFoundError();
  }
}

/** The attributes a PATCH really changes, `enabled` aside (it has its own entries). */
function changedFields(current: WebhookEndpoint, changes: EndpointChanges): string[] {
  const changed: string[] = [];
  if (changes.url !== undefined && changes.url !== current.url) changed.push('url');
  if (changes.description !== undefined && changes.description !== current.description)
    changed.push('description');
  if (
    changes.eventTypes !== undefined &&
    [...new Set(changes.eventTypes)].join('\n') !== current.eventTypes.join('\n')
  )
    changed.push('eventTypes');
  return changed;
}
