import { randomUUID } from 'node:crypto';
import { call, type Account } from './world.js';
import { status, type Action, type MixContext } from './mix-kit.js';

/**
 * Organizations, projects, members, audit log, settings (with the dashboard), invitations sent and
 * cancelled, ETag revalidation, key pairs and Sentinel Passes created and deleted, projects
 * created (and some deleted).
 */
export function organizationActions(ctx: MixContext): Action[] {
  const { gw, pick, org, project, get } = ctx;
  const invitations: { account: Account; id: string }[] = [];
  return [
    {
      name: 'organizations',
      weight: 5,
      run: async () => status(200)(await get(pick(), '/organizations')),
    },
    {
      name: 'organization + includes',
      weight: 4,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}?include=projects,users`));
      },
    },
    {
      name: 'projects list',
      weight: 5,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/projects`));
      },
    },
    {
      name: 'project',
      weight: 3,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, project(a)));
      },
    },
    {
      name: 'members',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/users`));
      },
    },
    {
      name: 'audit log',
      weight: 1,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `${org(a)}/audit_log`));
      },
    },
    {
      name: 'project rename',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = {
          data: {
            id: String(a.projectId),
            type: 'project',
            attributes: { name: `Soak ${randomUUID().slice(0, 6)}` },
          },
        };
        return status(200)(await call(gw, 'PATCH', project(a), { token: a.token, body }));
      },
    },
    {
      name: 'project create',
      weight: 0.3,
      run: async () => {
        const a = pick();
        const body = {
          data: { type: 'project', attributes: { name: `Extra ${randomUUID().slice(0, 6)}` } },
        };
        return status(
          200,
          201,
        )(await call(gw, 'POST', `${org(a)}/projects`, { token: a.token, body }));
      },
    },
    {
      name: 'settings',
      weight: 4,
      run: async () => status(200)(await get(pick(), '/user_settings')),
    },
    {
      name: 'settings update',
      weight: 1,
      run: async () => {
        const a = pick();
        const body = {
          theme: Math.random() < 0.5 ? 'dark' : 'light',
          current_organization_id: a.organizationId,
        };
        return status(200)(await call(gw, 'PATCH', '/user_settings', { token: a.token, body }));
      },
    },
    {
      name: 'invite',
      weight: 0.7,
      run: async () => {
        const a = pick();
        const body = {
          data: {
            type: 'membershipInvitation',
            attributes: {
              email: `invitee-${randomUUID().slice(0, 8)}@soak.example.com`,
              orgRole: 'member',
            },
          },
        };
        const res = await call(gw, 'POST', `${org(a)}/invitations`, { token: a.token, body });
        if (res.status !== 201) return `HTTP ${res.status}`;
        invitations.push({ account: a, id: String(res.json.data.id) });
        return true;
      },
    },
    {
      name: 'invitation cancel',
      weight: 0.6,
      run: async () => {
        const next = invitations.shift();
        if (!next) return true;
        const path = `${org(next.account)}/invitations/${next.id}`;
        return status(204, 200)(await call(gw, 'DELETE', path, { token: next.account.token }));
      },
    },
    {
      name: 'settings + dashboard',
      weight: 1,
      run: async () => status(200)(await get(pick(), '/user_settings?includes=dashboard')),
    },
    {
      name: 'organization (ETag)',
      weight: 1,
      run: async () => {
        const a = pick();
        const first = await call(gw, 'GET', org(a), { token: a.token, raw: true });
        const etag = first.headers?.['etag'];
        if (first.status !== 200 || typeof etag !== 'string') return `HTTP ${first.status}`;
        const again = await call(gw, 'GET', org(a), {
          token: a.token,
          headers: { 'if-none-match': etag },
          raw: true,
        });
        return status(304, 200)(again);
      },
    },
    {
      name: 'key pair create + delete',
      weight: 0.4,
      run: async () => {
        const a = pick();
        const path = `${project(a)}/api_keys`;
        const body = { data: { attributes: { note: 'soak' } } };
        const created = await call(gw, 'POST', path, { token: a.token, body });
        if (created.status !== 201) return `create: HTTP ${created.status}`;
        const removed = await call(gw, 'DELETE', `${path}/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
    {
      name: 'sentinel pass create + list + delete',
      weight: 0.4,
      run: async () => {
        const a = pick();
        const path = `${project(a)}/sentinel_passes`;
        const body = {
          sentinelPass: { title: 'Soak bot', permissions: ['projects:read'], tags: ['soak'] },
        };
        const created = await call(gw, 'POST', path, { token: a.token, body });
        if (created.status !== 201) return `create: HTTP ${created.status}`;
        const list = await get(a, path);
        if (list.status !== 200) return `list: HTTP ${list.status}`;
        const removed = await call(gw, 'DELETE', `${path}/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
    {
      name: 'project create + delete',
      weight: 0.2,
      run: async () => {
        const a = pick();
        const body = {
          data: { type: 'project', attributes: { name: `Brief ${randomUUID().slice(0, 6)}` } },
        };
        const created = await call(gw, 'POST', `${org(a)}/projects`, { token: a.token, body });
        if (created.status !== 200 && created.status !== 201)
          return `create: HTTP ${created.status}`;
        const removed = await call(gw, 'DELETE', `${org(a)}/projects/${created.json.data.id}`, {
          token: a.token,
        });
        return status(200, 204)(removed);
      },
    },
  ];
}
