import { Body, Controller, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface.js';
import { WithETag } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { ClientQueryDto, UserSettingsQueryDto } from './dto/user-settings-query.dto.js';
import {
  DEFAULT_CLIENT,
  ONBOARDING_BODY_SCHEMA,
  parseOnboardingBody,
  parseSettingsBody,
  parseStepId,
  SETTINGS_BODY_SCHEMA,
  STEP_ID_SCHEMA,
} from './user-settings.input.js';
import type { UserSettingsResource } from './user-settings.serializer.js';
import { UserSettingsService } from './user-settings.service.js';

/**
 * docs/api.md § User settings ({org_url}). Every answer is the user settings object of the
 * client, at the top level of the body (docs/org.md § User settings); the PATCHes answer 200
 * with the object as it is after the change.
 */
@Controller('user_settings')
export class UserSettingsController {
  constructor(private readonly settings: UserSettingsService) {}

  /**
   * `GET /user_settings?client=web&includes=dashboard`: the user's settings for one client
   * (sidebar, current organization and project, language, theme). One resource per user and client: weak
   * `ETag`, `If-None-Match` → 304 (docs/org.md § ETags).
   */
  @Get()
  @WithETag()
  @ApiOperation({ summary: "Get the signed-in user's settings" })
  get(
    @CurrentPrincipal() principal: Principal,
    @Query() query: UserSettingsQueryDto,
  ): Promise<UserSettingsResource> {
    const dashboard = query.includes?.includes('dashboard') ?? false;
    return this.settings.get(principal, query.client ?? DEFAULT_CLIENT, dashboard);
  }

  /**
   * `PATCH /user_settings?client=`: `theme`, `language`, `sidebar_open`,
   * `current_organization_id`, `current_project_id`; or the pinned-projects form
   * (`setting_key: sidebar`, `organization_id`, `pinned_project_ids`).
   * @throws 400 `VALIDATION_FAILED` (unknown key, bad value; nothing written), 422
   *   `ORGANIZATION_NOT_ACCESSIBLE` / `PROJECT_NOT_ACCESSIBLE`
   */
  @Patch()
  @HttpCode(200)
  @ApiBody({ schema: SETTINGS_BODY_SCHEMA as SchemaObject })
  @ApiOperation({ summary: "Change the signed-in user's settings" })
  update(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ClientQueryDto,
    @Body() body: unknown,
  ): Promise<UserSettingsResource> {
    const input = parseSettingsBody(body);
    return this.settings.update(principal, query.client ?? DEFAULT_CLIENT, input);
  }

  /**
   * `PATCH /user_settings/onboarding/{stepId}?client=` with `{value}` (any JSON, default true).
   * @throws 400 (step id, unknown key, value over 4 KiB), 422 `TOO_MANY_ONBOARDING_STEPS`
   */
  @Patch('onboarding/:stepId')
  @HttpCode(200)
  @ApiParam({ name: 'stepId', schema: STEP_ID_SCHEMA })
  @ApiBody({ required: false, schema: ONBOARDING_BODY_SCHEMA as SchemaObject })
  @ApiOperation({ summary: 'Record an onboarding step' })
  onboarding(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ClientQueryDto,
    @Param('stepId') stepId: string,
    @Body() body: unknown,
  ): Promise<UserSettingsResource> {
    const step = parseStepId(stepId);
    const value = parseOnboardingBody(body);
    return this.settings.setOnboardingStep(principal, query.client ?? DEFAULT_CLIENT, step, value);
  }
}
