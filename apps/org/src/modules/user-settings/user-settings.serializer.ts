import { organizationCan, type Role } from '@wp/contracts';
import type { Dashboard } from './dashboard.js';
import { sidebarHasOrganization, sidebarHasProject, type Sidebar } from './sidebar.js';
import type { Theme } from './user-settings.entity.js';
import type { StoredSettings } from './user-settings.repository.js';

/** `sidebar.organizations[]` entry (docs/api.md § User settings object). */
export interface SidebarOrganizationResource {
  id: number;
  name: string;
  currentUserRole: Role | null;
  meta: { can: { organization: { manageSettings: boolean }; project: { create: boolean } } };
  pinned_items: { type: 'project'; id: number; name: string; position: number }[];
  projects: { id: number; name: string; is_default: boolean }[];
}

/** The user settings object, at the top level of the response body (docs/org.md). */
export interface UserSettingsResource {
  client: string;
  sidebar: { organizations: SidebarOrganizationResource[] };
  current_organization_id: number | null;
  current_project_id: number | null;
  language: string;
  theme: Theme;
  sidebar_open: boolean;
  onboarding: Record<string, unknown>;
  dashboard?: Dashboard;
}

/** Settings of a (user, client) that never wrote any. */
export const DEFAULT_SETTINGS: StoredSettings = {
  theme: 'light',
  language: 'en',
  sidebarOpen: true,
  currentOrganizationId: null,
  currentProjectId: null,
  onboarding: {},
};

/**
 * The user settings object (docs/api.md § User settings object). Ids in the sidebar and the
 * current ids are integers (docs/architecture.md § Ids). A current organization or project the user
 * can no longer see is answered as null. `meta.can` comes from the permission table
 * (`organizationCan`), the same one the guards use.
 */
export function toUserSettingsResource(view: {
  client: string;
  settings: StoredSettings | null;
  sidebar: Sidebar;
  dashboard?: Dashboard;
}): UserSettingsResource {
  const settings = view.settings ?? DEFAULT_SETTINGS;
  const { currentOrganizationId: org, currentProjectId: project } = settings;
  return {
    client: view.client,
    sidebar: { organizations: view.sidebar.organizations.map(toSidebarOrganization) },
    current_organization_id: org !== null && sidebarHasOrganization(view.sidebar, org) ? org : null,
    current_project_id:
      project !== null && sidebarHasProject(view.sidebar, project) ? project : null,
    language: settings.language,
    theme: settings.theme,
    sidebar_open: settings.sidebarOpen,
    onboarding: settings.onboarding,
    ...(view.dashboard ? { dashboard: view.dashboard } : {}),
  };
}

function toSidebarOrganization(
  entry: Sidebar['organizations'][number],
): SidebarOrganizationResource {
  // The two-factor policy shuts the caller out: nothing is allowed (docs/org.md § Two-factor policy).
  const canRole = entry.twoFactorBlocked ? null : entry.role;
  return {
    id: entry.organization.id,
    name: entry.organization.name,
    currentUserRole: entry.role,
    meta: {
      can: {
        organization: {
          manageSettings: organizationCan(canRole, 'organization.manageSettings'),
        },
        project: { create: organizationCan(canRole, 'project.create') },
      },
    },
    pinned_items: entry.pins.map(({ project, position }) => ({
      type: 'project',
      id: project.id,
      name: project.name,
      position,
    })),
    projects: entry.projects.map(({ project }) => ({
      id: project.id,
      name: project.name,
      is_default: project.isDefault,
    })),
  };
}
