import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { document, IntIdPipe, WithETag, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { toProjectResource } from '../projects/project.serializer.js';
import { CreateOrganizationDto } from './dto/create-organization.dto.js';
import { OrganizationQueryDto } from './dto/organization-query.dto.js';
import { UpdateOrganizationDto } from './dto/update-organization.dto.js';
import {
  identifiers,
  toMembershipResource,
  toOrganizationResource,
  toUserResource,
  type OrganizationAttributes,
  type OrganizationRelationships,
} from './organization.serializer.js';
import { OrganizationsService, type OrganizationView } from './organizations.service.js';

/** docs/api.md § Organizations ({org_url}): the organization resource itself. */
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  /**
   * `GET /organizations`: `{data: [organization], included: [project, users,
   * organization_memberships]}`. Each organization carries `relationships.projects` (projects
   * the caller can access), `relationships.users` and `relationships.organization_memberships`,
   * and `meta.role` / `meta.can` for the caller.
   */
  @Get()
  @ApiOperation({ summary: "List the caller's organizations" })
  async list(
    @CurrentPrincipal() principal: Principal,
  ): Promise<Document<Resource<OrganizationAttributes>[]>> {
    const views = await this.organizations.listForUser(principal);
    const included = new Included();
    const data = views.map((view) =>
      toOrganizationResource(
        view.organization,
        view.role,
        included.add(view, ['projects', 'users', 'organization_memberships']),
        view.twoFactorBlocked,
      ),
    );
    return document(data, { included: included.all() });
  }

  /** `POST /organizations` → 200 (the contract's status) with the created organization. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an organization' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateOrganizationDto,
  ): Promise<Document<Resource<OrganizationAttributes>>> {
    const { organization, role } = await this.organizations.create(
      principal,
      dto.data.attributes.name,
    );
    const data = toOrganizationResource(organization, role);
    return document(data, { meta: data.meta });
  }

  /**
   * `GET /organizations/{organizationId}`: `data.id` equals the requested id; `include` adds
   * `included` resources and the matching `relationships`; `meta` repeats the caller's
   * `role`/`can` at the top level. Weak `ETag`; `If-None-Match` → 304 (docs/org.md § ETags).
   */
  @Get(':organizationId')
  @WithETag()
  @ApiOperation({ summary: 'Get an organization' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Query() query: OrganizationQueryDto,
  ): Promise<Document<Resource<OrganizationAttributes>>> {
    const include = query.include ?? [];
    const view = await this.organizations.get(principal, organizationId, include);
    const included = new Included();
    const relationships = include.length > 0 ? included.add(view, include) : undefined;
    const data = toOrganizationResource(view.organization, view.role, relationships);
    return document(data, {
      ...(include.length > 0 ? { included: included.all() } : {}),
      meta: data.meta,
    });
  }

  /** `PATCH /organizations/{organizationId}` (name): ADMIN or OWNER. */
  @Patch(':organizationId')
  @ApiOperation({ summary: 'Rename an organization' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organizationId', IntIdPipe) organizationId: number,
    @Body() dto: UpdateOrganizationDto,
  ): Promise<Document<Resource<OrganizationAttributes>>> {
    const view = await this.organizations.rename(principal, organizationId, {
      id: dto.data.id,
      name: dto.data.attributes.name,
    });
    const data = toOrganizationResource(view.organization, view.role);
    return document(data, { meta: data.meta });
  }
}

/** Collects `included` resources once each (JSON:API: no duplicates of type + id). */
class Included {
  private readonly resources = new Map<string, Resource>();

  /** Adds a view's related resources; returns the organization's relationships to them. */
  add(view: OrganizationView, kinds: string[]): OrganizationRelationships {
    const relationships: OrganizationRelationships = {};
    if (kinds.includes('projects') && view.projects) {
      const projects = view.projects.map((p) => toProjectResource(p.project, p.role));
      projects.forEach((r) => this.put(r));
      relationships['projects'] = { data: identifiers(projects) };
    }
    if (kinds.includes('users') && view.members) {
      const users = view.members.map(toUserResource);
      users.forEach((r) => this.put(r));
      relationships['users'] = { data: identifiers(users) };
    }
    if (kinds.includes('organization_memberships') && view.members) {
      const memberships = view.members.map(toMembershipResource);
      memberships.forEach((r) => this.put(r));
      relationships['organization_memberships'] = { data: identifiers(memberships) };
    }
    return relationships;
  }

  all(): Resource[] {
    return [...this.resources.values()];
  }

  private put(resource: Resource): void {
    this.resources.set(`${resource.type}:${resource.id}`, resource);
  }
}
