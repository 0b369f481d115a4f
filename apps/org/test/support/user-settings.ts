import type { OrgTestContext, TestUser } from './org-test-app.js';

/**
 * Requests and reads of the user settings tests (apps/org/test/e2e/user-settings*.e2e-spec.ts),
 * bound to the test file's context (`ctx()`: it is created in `beforeAll`).
 */
export function userSettingsHelpers(ctx: () => OrgTestContext) {
  const get = (user: TestUser, query = '') =>
    ctx().request('GET', `/user_settings${query}`, { token: user.token });
  const patch = (user: TestUser, body: unknown, query = '') =>
    ctx().request('PATCH', `/user_settings${query}`, { token: user.token, body });
  const onboarding = (user: TestUser, step: string, body?: unknown, query = '') =>
    ctx().request('PATCH', `/user_settings/onboarding/${step}${query}`, {
      token: user.token,
      ...(body !== undefined ? { body } : {}),
    });
  const P = (org: string) => `/organizations/${org}/projects`;
  /** Everything stored for a user: settings rows of every client and pins. */
  const stored = async (user: TestUser) => ({
    settings: await ctx().db.query(
      `SELECT client, theme, language, sidebar_open, current_organization_id,
              current_project_id, onboarding
       FROM user_settings WHERE user_id = $1 ORDER BY client`,
      [user.id],
    ),
    pins: await ctx().db.query(
      `SELECT organization_id, project_id, position FROM pinned_project
       WHERE user_id = $1 ORDER BY organization_id, position`,
      [user.id],
    ),
  });
  const sidebarOrg = (body: any, orgId: string) =>
    body.sidebar.organizations.find((o: any) => o.id === Number(orgId));
  const projectIds = (org: any) => org.projects.map((p: any) => p.id);
  const pinIds = (org: any) => org.pinned_items.map((p: any) => p.id);
  return { get, patch, onboarding, P, stored, sidebarOrg, projectIds, pinIds };
}
