import type { Sidebar } from './sidebar.js';

/** How many recently active projects the dashboard lists. */
export const RECENT_PROJECTS = 5;

/**
 * `dashboard` of `GET /user_settings?includes=dashboard` (contract: "contents: not shown";
 * docs/org.md § User settings, Dashboard).
 */
export interface Dashboard {
  /** Organizations in the sidebar (member or project-only member). */
  organizations_count: number;
  /** Projects the user can access, all organizations together. */
  projects_count: number;
  /** Unexpired pending invitations addressed to the user's email (as `/me/pending_invitations`). */
  pending_invitations_count: number;
  /** The 5 accessible projects with the latest `last_activity_at`, most recent first. */
  recent_projects: {
    id: number;
    name: string;
    organization_id: number;
    /** ISO 8601. */
    last_activity_at: string;
  }[];
}

/** Computes the dashboard from the sidebar already loaded and the pending invitation count. */
export function buildDashboard(sidebar: Sidebar, pendingInvitations: number): Dashboard {
  const projects = sidebar.organizations.flatMap((o) => o.projects.map((p) => p.project));
  const recent = [...projects]
    .sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime() || b.id - a.id)
    .slice(0, RECENT_PROJECTS);
  return {
    organizations_count: sidebar.organizations.length,
    projects_count: projects.length,
    pending_invitations_count: pendingInvitations,
    recent_projects: recent.map((p) => ({
      id: p.id,
      name: p.name,
      organization_id: p.organizationId,
      last_activity_at: p.lastActivityAt.toISOString(),
    })),
  };
}
