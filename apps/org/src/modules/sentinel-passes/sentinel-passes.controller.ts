import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  document,
  type Document,
  IntIdPipe,
  NoStore,
  type Resource,
  UuidPipe,
  ValidationFailedError,
  WithETag,
} from '@wp/http';
import { AgentAccess, CurrentPrincipal, type Principal } from '@wp/security';
import {
  CreateSentinelPassDto,
  UpdateSentinelPassDto,
  type SentinelPassFieldsDto,
} from './dto/sentinel-pass-body.dto.js';
import { SentinelPassListQueryDto } from './dto/sentinel-pass-query.dto.js';
import { toSentinelPassResource, type SentinelPassAttributes } from './sentinel-pass.serializer.js';
import type { SentinelPassFilter } from './sentinel-passes.repository.js';
import { SentinelPassesService, type PassWithKey } from './sentinel-passes.service.js';

/**
 * One pass: in `sentinelPass` (docs/api.md § Payload conventions: "Sentinel Pass payloads wrap
 * fields in `sentinelPass`", read for responses as docs/architecture.md reads the wallet rule) and,
 * the same object, in `data` (the JSON:API reading; earlier clients). docs/org.md § Sentinel Pass.
 */
type PassDocument = Document<Resource<SentinelPassAttributes>> & {
  sentinelPass: Resource<SentinelPassAttributes>;
};
type PassListDocument = Document<Resource<SentinelPassAttributes>[]>;

const S = 'projects/:projectId/sentinel_passes';

/**
 * Sentinel Passes (docs/api.md § Sentinel Passes: S = /organizations/{orgId}/projects/{projectId}/
 * sentinel_passes; docs/api.md § Organizations: `GET /organizations/{id}/sentinel_passes`). Every
 * answer is the unified asset format (`studio_tool`); the key appears only at `meta.secret` of the
 * create and `rotate_key` answers.
 */
@Controller('organizations/:organizationId')
export class SentinelPassesController {
  constructor(private readonly passes: SentinelPassesService) {}

  /** `POST S` → 201 `{data: pass, meta: {secret: "sp_…"}}`. */
  @Post(S)
  @NoStore()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a Sentinel Pass' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: CreateSentinelPassDto,
  ): Promise<PassDocument> {
    const fields = checkEntity(dto.sentinelPass, projectId);
    const created = await this.passes.create(
      { principal, organizationId, projectId },
      {
        ...fields,
        title: dto.sentinelPass.title,
      },
    );
    return withSecret(created);
  }

  /** `GET S` (`active`, `credential_type`, `search`, `tags`) → `{data: [pass]}`, oldest first. */
  @Get(S)
  @AgentAccess()
  @ApiOperation({ summary: "List a project's Sentinel Passes" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Query() query: SentinelPassListQueryDto,
  ): Promise<PassListDocument> {
    const passes = await this.passes.list(
      { principal, organizationId, projectId },
      toFilter(query),
    );
    const now = new Date();
    return document(passes.map((p) => toSentinelPassResource(p, now)));
  }

  /** `GET S/{passId}` → the pass; weak `ETag`, `If-None-Match` → 304 (docs/org.md § ETags). */
  @Get(`${S}/:passId`)
  @AgentAccess()
  @WithETag()
  @ApiOperation({ summary: 'Get a Sentinel Pass' })
  // jscpd:ignore-start: each route's decorators and parameters are its HTTP contract (get, revoke, activate a pass).
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
  ): Promise<PassDocument> {
    const pass = await this.passes.get({ principal, organizationId, projectId }, passId);
    // jscpd:ignore-end
    return passDocument(toSentinelPassResource(pass));
  }

  /** `PUT S/{passId}` (`{sentinelPass: {…}}`, fields to change) → the pass. */
  @Put(`${S}/:passId`)
  @ApiOperation({ summary: 'Change a Sentinel Pass' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
    @Body() dto: UpdateSentinelPassDto,
  ): Promise<PassDocument> {
    const fields = checkEntity(dto.sentinelPass, projectId);
    const pass = await this.passes.update({ principal, organizationId, projectId }, passId, fields);
    return passDocument(toSentinelPassResource(pass));
  }

  /** `DELETE S/{passId}` → 204; permanent. */
  @Delete(`${S}/:passId`)
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a Sentinel Pass' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
  ): Promise<void> {
    await this.passes.delete({ principal, organizationId, projectId }, passId);
  }

  /** `POST S/{passId}/rotate_key` → 200 `{data: pass, meta: {secret: "sp_…"}}`. */
  @Post(`${S}/:passId/rotate_key`)
  @NoStore()
  @HttpCode(200)
  @ApiOperation({ summary: "Rotate a Sentinel Pass's key" })
  async rotateKey(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
  ): Promise<PassDocument> {
    return withSecret(
      await this.passes.rotateKey({ principal, organizationId, projectId }, passId),
    );
  }

  /** `POST S/{passId}/revoke` → 200 with `active: false`. */
  @Post(`${S}/:passId/revoke`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a Sentinel Pass' })
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
  ): Promise<PassDocument> {
    const pass = await this.passes.revoke({ principal, organizationId, projectId }, passId);
    return passDocument(toSentinelPassResource(pass));
  }

  /** `POST S/{passId}/activate` → 200 with `active: true`. */
  @Post(`${S}/:passId/activate`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate a Sentinel Pass' })
  // jscpd:ignore-start: the same parameters as get and revoke above; each route's decorators and parameters are its HTTP contract.
  async activate(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Param('passId', UuidPipe) passId: string,
  ): Promise<PassDocument> {
    const pass = await this.passes.activate({ principal, organizationId, projectId }, passId);
    // jscpd:ignore-end
    return passDocument(toSentinelPassResource(pass));
  }

  /**
   * `GET /organizations/{id}/sentinel_passes` (same filters) → `{data: [pass]}`: passes of the
   * projects the caller can see, by project then oldest first.
   */
  @Get('sentinel_passes')
  @ApiOperation({ summary: "List the Sentinel Passes of an organization's projects" })
  async listForOrganization(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Query() query: SentinelPassListQueryDto,
  ): Promise<PassListDocument> {
    const passes = await this.passes.listForOrganization(
      principal,
      organizationId,
      toFilter(query),
    );
    const now = new Date();
    return document(passes.map((p) => toSentinelPassResource(p, now)));
  }
}

function withSecret({ pass, key }: PassWithKey): PassDocument {
  return passDocument(toSentinelPassResource(pass), { secret: key });
}

/** `{sentinelPass: pass, data: pass, meta?}`: see {@link PassDocument}. */
function passDocument(
  pass: Resource<SentinelPassAttributes>,
  meta?: Record<string, unknown>,
): PassDocument {
  return { sentinelPass: pass, ...document(pass, meta ? { meta } : {}) };
}

/**
 * `entityType` is `project` (DTO) and `entityId`, when sent, must name the path's project.
 * @throws ValidationFailedError 400 at `/sentinelPass/entityId`
 */
function checkEntity<T extends SentinelPassFieldsDto>(
  fields: T,
  projectId: number,
): Omit<T, 'entityId' | 'entityType'> {
  const { entityId, entityType: _type, ...rest } = fields;
  if (
    entityId !== undefined &&
    entityId !== null &&
    !(
      (typeof entityId === 'string' || typeof entityId === 'number') &&
      String(entityId).trim() === String(projectId)
    )
  ) {
    throw ValidationFailedError.at(
      { pointer: '/sentinelPass/entityId' },
      'must be the projectId of the path (or omitted)',
    );
  }
  return rest;
}

function toFilter(query: SentinelPassListQueryDto): SentinelPassFilter {
  return {
    active: query.active,
    credentialType: query.credential_type,
    search: query.search?.trim() || undefined,
    tags: query.tags?.length ? [...new Set(query.tags)] : undefined,
  };
}
