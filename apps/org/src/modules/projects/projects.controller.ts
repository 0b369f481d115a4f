import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import {
  document,
  IntIdPipe,
  parseIsoInstant,
  ValidationFailedError,
  WithETag,
  type Document,
  type Resource,
  noStore,
} from '@wp/http';
import { AgentAccess, CurrentPrincipal, type Principal } from '@wp/security';
import type { FastifyReply } from 'fastify';
import { toApiKeyResource } from '../api-keys/api-key.serializer.js';
import { toLlmApiKeyResource } from '../llm-keys/llm-api-key.serializer.js';
import { toSentinelPassResource } from '../sentinel-passes/sentinel-pass.serializer.js';
import { ProjectListQueryDto } from './dto/project-list-query.dto.js';
import { CreateProjectDto, UpdateProjectDto } from './dto/project-body.dto.js';
import { ProjectQueryDto } from './dto/project-query.dto.js';
import { DEFAULT_PROJECT_SORT, type ProjectListFilter } from '../tenants/project-list.js';
import {
  toProjectMemberResource,
  toProjectResource,
  type ProjectAttributes,
} from './project.serializer.js';
import { ProjectsService, type ProjectView } from './projects.service.js';

type ProjectDocument = Document<Resource<ProjectAttributes>>;

/** Projects (docs/api.md § Projects, P = /organizations/{organizationId}/projects). */
@Controller('organizations/:organizationId/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  /**
   * `GET P`: `{data: [project]}` — the projects the caller can access, filtered and sorted
   * (docs/org.md § Project list). Not paginated.
   */
  @Get()
  @ApiOperation({ summary: 'List the projects of an organization' })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Query() query: ProjectListQueryDto,
  ): Promise<Document<Resource<ProjectAttributes>[]>> {
    const rows = await this.projects.list(principal, organizationId, toFilter(query));
    return document(rows.map((r) => toProjectResource(r.project, r.role)));
  }

  /** `POST P` → 201 with the project (the caller is its OWNER; its first key pair exists). */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a project' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: CreateProjectDto,
  ): Promise<ProjectDocument> {
    const { project, role } = await this.projects.create(
      principal,
      organizationId,
      dto.data.attributes.name,
    );
    const data = toProjectResource(project, role);
    return document(data, { meta: data.meta });
  }

  /**
   * `GET P/{projectId}`: `secret=true` adds `meta.secrets` {publicKey, secretKey} (the oldest
   * unexpired pair; null when none); `include` adds `included` with `users`, `apiKey` and
   * `llm_api_keys` resources, `sentinelPasses` the project's passes (`studio_tool`, never keys)
   * and the relationships. Weak `ETag`; `If-None-Match` → 304; with `secret=true`,
   * `Cache-Control: no-store` and `Pragma: no-cache` (docs/org.md § ETags).
   */
  @Get(':projectId')
  @AgentAccess()
  @WithETag()
  @ApiOperation({ summary: 'Get a project' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Query() query: ProjectQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ProjectDocument> {
    const view = await this.projects.get(principal, organizationId, projectId, {
      secret: query.secret ?? false,
      include: query.include ?? [],
    });
    // A secret key must not land in any cache, not even the caller's own.
    if (view.secrets !== undefined) noStore(reply);
    return toProjectDocument(view, (query.include ?? []).length > 0);
  }

  /** `PATCH P/{projectId}` → 200. */
  @Patch(':projectId')
  @ApiOperation({ summary: 'Rename a project' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
    @Body() dto: UpdateProjectDto,
  ): Promise<ProjectDocument> {
    const { project, role } = await this.projects.rename(principal, organizationId, projectId, {
      id: dto.data.id,
      name: dto.data.attributes.name,
    });
    const data = toProjectResource(project, role);
    return document(data, { meta: data.meta });
  }

  /** `DELETE P/{projectId}` → 204. */
  @Delete(':projectId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a project' })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Param('projectId', IntIdPipe) projectId: number,
  ): Promise<void> {
    await this.projects.delete(principal, organizationId, projectId);
  }
}

function toFilter(query: ProjectListQueryDto): ProjectListFilter {
  if (
    query.min_members !== undefined &&
    query.max_members !== undefined &&
    query.min_members > query.max_members
  ) {
    throw ValidationFailedError.at(
      { parameter: 'min_members' },
      'must not be greater than max_members',
    );
  }
  return {
    userRoles: query.user_role?.length ? query.user_role : undefined,
    hasWallet: query.has_wallet,
    hasTools: query.has_tools,
    hasNotebooks: query.has_notebooks,
    minMembers: query.min_members,
    maxMembers: query.max_members,
    search: query.search?.trim() || undefined,
    createdAfter: query.created_after
      ? (parseIsoInstant(query.created_after) ?? undefined)
      : undefined,
    createdBefore: query.created_before
      ? (parseIsoInstant(query.created_before) ?? undefined)
      : undefined,
    sort: query.sort ?? DEFAULT_PROJECT_SORT,
  };
}

function toProjectDocument(view: ProjectView, withIncluded: boolean): ProjectDocument {
  const included: Resource[] = [];
  const relationships: NonNullable<Resource['relationships']> = {};
  const add = (name: string, resources: Resource[]) => {
    included.push(...resources);
    relationships[name] = { data: resources.map((r) => ({ type: r.type, id: r.id })) };
  };
  if (view.members) add('users', view.members.map(toProjectMemberResource));
  if (view.apiKeys)
    add(
      'apiKeys',
      view.apiKeys.map((k) => toApiKeyResource(k)),
    );
  if (view.llmApiKeys) add('llmApiKeys', view.llmApiKeys.map(toLlmApiKeyResource));
  if (view.sentinelPasses) {
    add(
      'sentinelPasses',
      view.sentinelPasses.map((p) => toSentinelPassResource(p)),
    );
  }
  const data = toProjectResource(
    view.project,
    view.role,
    withIncluded ? relationships : undefined,
    view.can,
  );
  const meta: Record<string, unknown> = { ...data.meta };
  if (view.secrets !== undefined) meta['secrets'] = view.secrets;
  return document(data, { ...(withIncluded ? { included } : {}), meta });
}
