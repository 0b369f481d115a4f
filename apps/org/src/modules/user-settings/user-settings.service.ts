import { Injectable } from '@nestjs/common';
import { TxHost } from '@wp/persistence';
import { sessionHasTwoFactors, type Principal } from '@wp/security';
import { InvitationsService } from '../invitations/invitations.service.js';
import { buildDashboard } from './dashboard.js';
import {
  SidebarBuilder,
  sidebarHasOrganization,
  sidebarHasProject,
  type Sidebar,
} from './sidebar.js';
import {
  OrganizationNotAccessibleError,
  ProjectNotAccessibleError,
  TooManyOnboardingStepsError,
} from './user-settings.errors.js';
import {
  storedPatch,
  type PinsInput,
  type SettingsId,
  type SettingsInput,
} from './user-settings.input.js';
import { UserSettingsRepository } from './user-settings.repository.js';
import { toUserSettingsResource, type UserSettingsResource } from './user-settings.serializer.js';

/** Onboarding step ids kept per (user, client) at most. */
export const MAX_ONBOARDING_STEPS = 100;

/**
 * User settings (docs/api.md § User settings; docs/org.md § User settings): per-client settings,
 * the live sidebar, pinned projects (shared by every client) and onboarding steps. Every
 * command is one transaction that validates everything before writing anything.
 */
@Injectable()
export class UserSettingsService {
  constructor(
    private readonly txHost: TxHost,
    private readonly settings: UserSettingsRepository,
    private readonly sidebar: SidebarBuilder,
    private readonly invitations: InvitationsService,
  ) {}

  /**
   * `GET /user_settings`: the settings of (caller, client) with the sidebar; `dashboard` adds
   * the dashboard. A constant number of queries: settings row, pins, organizations, projects
   * (and the pending invitations for the dashboard).
   */
  async get(
    principal: Principal,
    client: string,
    dashboard = false,
  ): Promise<UserSettingsResource> {
    const [settings, sidebar, pending] = await Promise.all([
      this.settings.find(principal.id, client),
      this.loadSidebar(principal),
      dashboard ? this.invitations.pendingFor(principal) : Promise.resolve([]),
    ]);
    return toUserSettingsResource({
      client,
      settings,
      sidebar,
      ...(dashboard ? { dashboard: buildDashboard(sidebar, pending.length) } : {}),
    });
  }

  /**
   * `PATCH /user_settings` (either form). The ids named must be in the caller's sidebar.
   * @throws 422 `ORGANIZATION_NOT_ACCESSIBLE`, `PROJECT_NOT_ACCESSIBLE`
   */
  async update(
    principal: Principal,
    client: string,
    input: SettingsInput | PinsInput,
  ): Promise<UserSettingsResource> {
    const sidebar = await this.loadSidebar(principal);
    await this.txHost.withTransaction(async () => {
      if (input.form === 'pins') await this.replacePins(principal.id, sidebar, input);
      else await this.applySettings(principal.id, client, sidebar, input);
    });
    return this.get(principal, client);
  }

  /**
   * `PATCH /user_settings/onboarding/{stepId}`: stores `value` for the step, per client.
   * @throws 422 `TOO_MANY_ONBOARDING_STEPS` for a new step beyond {@link MAX_ONBOARDING_STEPS}
   */
  async setOnboardingStep(
    principal: Principal,
    client: string,
    stepId: string,
    value: unknown,
  ): Promise<UserSettingsResource> {
    await this.txHost.withTransaction(async () => {
      const stored = await this.settings.setOnboardingStep(
        principal.id,
        client,
        stepId,
        value,
        MAX_ONBOARDING_STEPS,
      );
      if (!stored) throw new TooManyOnboardingStepsError(MAX_ONBOARDING_STEPS);
    });
    return this.get(principal, client);
  }

  private async loadSidebar(principal: Principal): Promise<Sidebar> {
    return this.sidebar.build(
      principal.id,
      await this.settings.findPins(principal.id),
      sessionHasTwoFactors(principal),
    );
  }

  private async applySettings(
    userId: string,
    client: string,
    sidebar: Sidebar,
    input: SettingsInput,
  ): Promise<void> {
    const organizationId = resolveId(input.currentOrganizationId, (id) =>
      sidebarHasOrganization(sidebar, id),
    );
    if (organizationId === false) {
      throw new OrganizationNotAccessibleError('/current_organization_id');
    }
    const projectId = resolveId(input.currentProjectId, (id) => sidebarHasProject(sidebar, id));
    if (projectId === false) throw new ProjectNotAccessibleError('/current_project_id');
    await withForeignKeyCheck(
      () => this.settings.upsert(userId, client, storedPatch(input, { organizationId, projectId })),
      // the organization or project went away between the check and the write
      () => new ProjectNotAccessibleError('/current_project_id'),
    );
  }

  private async replacePins(userId: string, sidebar: Sidebar, input: PinsInput): Promise<void> {
    const organization = sidebar.organizations.find(
      (o) => o.organization.id === input.organizationId,
    );
    if (!organization) throw new OrganizationNotAccessibleError('/organization_id');
    const accessible = new Set(organization.projects.map((p) => p.project.id));
    const missing = input.projectIds.findIndex((id) => !accessible.has(id));
    if (missing >= 0) throw new ProjectNotAccessibleError(`/pinned_project_ids/${missing}`);
    await withForeignKeyCheck(
      () => this.settings.replacePins(userId, input.organizationId, input.projectIds),
      () => new ProjectNotAccessibleError('/pinned_project_ids'),
    );
  }
}

/**
 * An id of the body as stored: undefined (not sent), null (clear), the integer id when
 * `accessible`, or false (refused). A UUID string never matches: organizations and projects
 * have integer ids here (docs/architecture.md § Ids).
 */
function resolveId(
  id: SettingsId | null | undefined,
  accessible: (id: number) => boolean,
): number | null | undefined | false {
  if (id === undefined || id === null) return id;
  return id.kind === 'int' && accessible(id.id) ? id.id : false;
}

/** Runs a write; a foreign key violation (row deleted concurrently) becomes `refusal()`. */
async function withForeignKeyCheck(
  write: () => Promise<void>,
  refusal: () => Error,
): Promise<void> {
  try {
    await write();
  } catch (error) {
    const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code;
    if (code === '23503') throw refusal();
    throw error;
  }
}
