import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { document, type Document, type Resource } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { CreateOrganizationDto } from './dto/create-organization.dto.js';
import { toOrganizationResource, type OrganizationAttributes } from './organization.serializer.js';
import { OrganizationsService } from './organizations.service.js';

@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  /** `GET /organizations` (contract § Organizations): `{data: [organization]}`. */
  @Get()
  async list(
    @CurrentPrincipal() principal: Principal,
  ): Promise<Document<Resource<OrganizationAttributes>[]>> {
    const rows = await this.organizations.listForUser(principal);
    return document(rows.map((r) => toOrganizationResource(r.organization, r.role)));
  }

  /** `POST /organizations` → 200 (the contract's status) with the created organization. */
  @Post()
  @HttpCode(200)
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
}
