import { createHash } from 'node:crypto';
import { connect, JSONCodec } from 'nats';
import { randomUUID } from 'node:crypto';
import { TEST_SERVERS, waitFor } from '@wp/testing';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Projects (P = /organizations/{organizationId}/projects): create, get with `secret`
 * and `include`, update (data.id rule), delete; docs/architecture.md § Default project and "Project
 * key pair"; `has_wallet` from `wallet.wallet.created`
 * (docs/architecture.md § Data ownership and events).
 */
describe('projects', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let member: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    member = await ctx.newUser('member');
    orgId = await ctx.newOrganization(owner, 'Projects Inc');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
  });
  afterAll(() => ctx.close());

  const P = (org = orgId) => `/organizations/${org}/projects`;
  describe('POST P', () => {
    it('creates a project (201) with the caller as OWNER member and a first key pair, announced by events', async () => {
      const mark = await ctx.outboxMark();
      const res = await ctx.request('POST', P(), {
        token: owner.token,
        body: { data: { type: 'project', attributes: { name: ' Analytics ' } } },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        type: 'project',
        attributes: { name: 'Analytics', isDefault: false, membersCount: 1, organizationId: orgId },
        meta: { role: 'OWNER' },
      });
      const id = res.body.data.id;
      expect(id).toMatch(/^\d+$/);
      const events = await ctx.outbox(undefined, mark);
      expect(events.map((e) => e.subject)).toEqual([
        'org.project.created',
        'org.membership.changed',
        'org.project.keys.changed',
      ]);
      expect(events[0].payload).toMatchObject({
        projectId: Number(id),
        isDefault: false,
        createdBy: owner.id,
      });
      expect(events[1].payload).toEqual({
        organizationId: Number(orgId),
        projectId: Number(id),
        userId: owner.id,
        role: 'OWNER',
        accessDenied: false,
        version: 1,
        organizationVersion: expect.any(Number),
      });
      const [key] = await ctx.db.query(
        'SELECT id, public_key, secret_key_sha256 FROM project_api_key WHERE project_id = $1',
        [Number(id)],
      );
      expect(key.public_key).toMatch(/^pk_[0-9a-f]{32}$/);
      expect(events[2].payload).toEqual({
        organizationId: Number(orgId),
        projectId: Number(id),
        version: 1,
        keys: [
          {
            id: key.id,
            publicKey: key.public_key,
            secretKeySha256: key.secret_key_sha256,
            expiresAt: null,
          },
        ],
      });
    });

    it('gives every new organization a default project with its key pair and its creator as OWNER', async () => {
      const org = await ctx.newOrganization(owner, 'Fresh');
      const projectId = await ctx.defaultProject(org);
      const res = await ctx.request('GET', `${P(org)}/${projectId}?secret=true&include=users`, {
        token: owner.token,
      });
      expect(res.body.data.attributes).toMatchObject({ isDefault: true, name: 'Default project' });
      expect(res.body.meta.secrets.publicKey).toMatch(/^pk_/);
      expect(res.body.meta.secrets.secretKey).toMatch(/^sk_[0-9a-f]{64}$/);
      expect(res.body.included).toEqual([
        expect.objectContaining({
          type: 'users',
          id: owner.id,
          attributes: expect.objectContaining({ role: 'OWNER' }),
        }),
      ]);
    });

    it('refuses an organization MEMBER (403 FORBIDDEN) and validates the name (400)', async () => {
      const before = await ctx.db.query('SELECT count(*)::int AS n FROM project');
      const forbidden = await ctx.request('POST', P(), {
        token: member.token,
        body: { data: { type: 'project', attributes: { name: 'Nope' } } },
      });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.errors[0].code).toBe('FORBIDDEN');
      const invalid = await ctx.request('POST', P(), {
        token: owner.token,
        body: { data: { type: 'projects', attributes: { name: '' } } },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/attributes/name',
        '/data/type',
      ]);
      expect(await ctx.db.query('SELECT count(*)::int AS n FROM project')).toEqual(before);
    });
  });

  describe('GET P/{id}', () => {
    let projectId: string;
    let projectMember: TestUser;

    beforeAll(async () => {
      projectId = await ctx.newProject(orgId, owner, 'Readable');
      projectMember = await ctx.newUser('project-member');
      await ctx.addProjectMember(orgId, projectId, owner, projectMember, 'MEMBER');
    });

    it('answers the project with the caller’s effective role and meta.can', async () => {
      const res = await ctx.request('GET', `${P()}/${projectId}`, { token: projectMember.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: projectId, attributes: { name: 'Readable' } });
      expect(res.body.meta.role).toBe('MEMBER');
      expect(res.body.meta.can.project).toMatchObject({
        read: true,
        update: false,
        manageKeys: false,
        viewSecrets: false,
      });
      expect(res.body.meta.secrets).toBeUndefined();
    });

    it('returns the key pair with secret=true to ADMIN/OWNER only; it decrypts to what analytics is told', async () => {
      const res = await ctx.request('GET', `${P()}/${projectId}?secret=true`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      const { publicKey, secretKey } = res.body.meta.secrets;
      const [row] = await ctx.db.query(
        'SELECT encrypted_secret_key, secret_key_sha256, secret_key_version FROM project_api_key WHERE public_key = $1',
        [publicKey],
      );
      expect(row.secret_key_sha256).toBe(createHash('sha256').update(secretKey).digest('hex'));
      expect(row.encrypted_secret_key).not.toContain(secretKey);
      expect(row.encrypted_secret_key).toMatch(/^v1\./);
      expect(row.secret_key_version).toBe(1);

      const denied = await ctx.request('GET', `${P()}/${projectId}?secret=true`, {
        token: projectMember.token,
      });
      expect(denied.status).toBe(403);
      expect(JSON.stringify(denied.body)).not.toContain(secretKey);
    });

    it('includes users, apiKeys (type apiKey, sealed secret), llmApiKeys and sentinelPasses', async () => {
      await ctx.request('POST', `${P()}/${projectId}/llm_api_keys`, {
        token: owner.token,
        body: {
          data: {
            type: 'llm_api_keys',
            attributes: { provider: 'openai', secretKey: 'sk-test-abcdefgh1234' },
          },
        },
      });
      const res = await ctx.request(
        'GET',
        `${P()}/${projectId}?include=users,apiKeys,llmApiKeys,sentinelPasses`,
        { token: owner.token },
      );
      expect(res.status).toBe(200);
      const byType = (t: string) => res.body.included.filter((r: any) => r.type === t);
      expect(
        byType('users')
          .map((u: any) => u.id)
          .sort(),
      ).toEqual([owner.id, projectMember.id].sort());
      const [apiKey] = byType('apiKey');
      expect(apiKey.attributes).toMatchObject({ note: 'Default key', expires_at: null });
      expect(apiKey.attributes.publicKey).toMatch(/^pk_/);
      expect(apiKey.attributes.encryptedSecretKey).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(byType('llm_api_keys')[0].attributes.secretKey).toBe('sk-…1234');
      expect(res.body.data.relationships.sentinelPasses).toEqual({ data: [] });
      expect(Object.keys(res.body.data.relationships).sort()).toEqual([
        'apiKeys',
        'llmApiKeys',
        'sentinelPasses',
        'users',
      ]);
    });

    it('refuses key includes to a project MEMBER (403) and unknown includes (400)', async () => {
      const keys = await ctx.request('GET', `${P()}/${projectId}?include=apiKeys`, {
        token: projectMember.token,
      });
      expect(keys.status).toBe(403);
      const unknown = await ctx.request('GET', `${P()}/${projectId}?include=wallets`, {
        token: owner.token,
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].source.parameter).toBe('include');
      const flag = await ctx.request('GET', `${P()}/${projectId}?secret=yes`, {
        token: owner.token,
      });
      expect(flag.status).toBe(400);
    });

    it('answers 404 for an organization MEMBER without project membership, and for a project of another organization', async () => {
      const hidden = await ctx.request('GET', `${P()}/${projectId}`, { token: member.token });
      expect(hidden.status).toBe(404);
      expect(hidden.body.errors[0].title).toBe('Project not found');
      const otherOrg = await ctx.newOrganization(owner, 'Elsewhere');
      const cross = await ctx.request('GET', `${P(otherOrg)}/${projectId}`, { token: owner.token });
      expect(cross.status).toBe(404);
    });
  });

  describe('PATCH P/{id}', () => {
    it('renames when data.id equals the path id and data.type is project, announcing org.project.updated', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Before');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: { data: { id: projectId, type: 'project', attributes: { name: 'After' } } },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: projectId, attributes: { name: 'After' } });
      expect((await ctx.outbox('org.project.updated', mark)).map((e) => e.payload)).toEqual([
        {
          organizationId: Number(orgId),
          projectId: Number(projectId),
          name: 'After',
          isDefault: false,
        },
      ]);
    });

    it('answers 409 PROJECT_ID_MISMATCH for another id and 400 without id or type; nothing changes', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Fixed');
      const mismatch = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: {
          data: {
            id: String(Number(projectId) + 1000),
            type: 'project',
            attributes: { name: 'X' },
          },
        },
      });
      expect(mismatch.status).toBe(409);
      expect(mismatch.body.errors[0].code).toBe('PROJECT_ID_MISMATCH');
      expect(mismatch.body.errors[0].source.pointer).toBe('/data/id');
      const missing = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: { data: { attributes: { name: 'X' } } },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/id',
        '/data/type',
      ]);
      const numeric = await ctx.request('PATCH', `${P()}/${projectId}`, {
        token: owner.token,
        body: {
          data: { id: Number(projectId), type: 'project', attributes: { name: 'Numeric id ok' } },
        },
      });
      expect(numeric.status).toBe(200);
      const [row] = await ctx.db.query('SELECT name FROM project WHERE id = $1', [
        Number(projectId),
      ]);
      expect(row.name).toBe('Numeric id ok');
    });
  });

  describe('DELETE P/{id}', () => {
    it('deletes permanently (204): members get role null, analytics an empty key set, then org.project.deleted', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Doomed');
      const extra = await ctx.newUser('doomed-member');
      await ctx.addProjectMember(orgId, projectId, owner, extra, 'VIEWER');
      const mark = await ctx.outboxMark();
      const res = await ctx.request('DELETE', `${P()}/${projectId}`, { token: owner.token });
      expect(res.status).toBe(204);
      expect(
        await ctx.db.query('SELECT 1 FROM project WHERE id = $1', [Number(projectId)]),
      ).toEqual([]);
      for (const table of ['project_api_key', 'project_membership', 'llm_api_key']) {
        expect(
          await ctx.db.query(`SELECT 1 FROM ${table} WHERE project_id = $1`, [Number(projectId)]),
        ).toEqual([]);
      }
      const events = await ctx.outbox(undefined, mark);
      const memberships = events
        .filter((e) => e.subject === 'org.membership.changed')
        .map((e) => e.payload);
      expect(memberships.map((m) => [m.userId, m.role]).sort()).toEqual(
        [
          [owner.id, null],
          [extra.id, null],
        ].sort(),
      );
      expect(memberships.every((m) => m.version === 2)).toBe(true);
      const keys = events.find((e) => e.subject === 'org.project.keys.changed')!.payload;
      expect(keys).toMatchObject({ projectId: Number(projectId), keys: [], version: 2 });
      expect(events.at(-1)!.subject).toBe('org.project.deleted');
      const again = await ctx.request('GET', `${P()}/${projectId}`, { token: owner.token });
      expect(again.status).toBe(404);
    });

    it('makes the oldest remaining project the default when the default is deleted', async () => {
      const org = await ctx.newOrganization(owner, 'Defaults');
      const first = await ctx.defaultProject(org);
      const second = await ctx.newProject(org, owner, 'Second');
      const third = await ctx.newProject(org, owner, 'Third');
      await ctx.db.query("UPDATE project SET created_at = now() - interval '1 day' WHERE id = $1", [
        Number(third),
      ]);
      const mark = await ctx.outboxMark();
      expect(
        (await ctx.request('DELETE', `${P(org)}/${first}`, { token: owner.token })).status,
      ).toBe(204);
      const rows = await ctx.db.query(
        'SELECT id, is_default FROM project WHERE organization_id = $1 ORDER BY id',
        [Number(org)],
      );
      expect(rows).toEqual([
        { id: Number(second), is_default: false },
        { id: Number(third), is_default: true },
      ]);
      expect((await ctx.outbox('org.project.updated', mark)).map((e) => e.payload)).toEqual([
        { organizationId: Number(org), projectId: Number(third), name: 'Third', isDefault: true },
      ]);
      // an organization left without projects gets a default again with its next project
      await ctx.request('DELETE', `${P(org)}/${second}`, { token: owner.token });
      await ctx.request('DELETE', `${P(org)}/${third}`, { token: owner.token });
      const next = await ctx.newProject(org, owner, 'Phoenix');
      const got = await ctx.request('GET', `${P(org)}/${next}`, { token: owner.token });
      expect(got.body.data.attributes.isDefault).toBe(true);
    });

    it('refuses a project MEMBER (403) and leaves the project in place', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Kept');
      const pm = await ctx.newUser('pm');
      await ctx.addProjectMember(orgId, projectId, owner, pm, 'MEMBER');
      const res = await ctx.request('DELETE', `${P()}/${projectId}`, { token: pm.token });
      expect(res.status).toBe(403);
      expect(
        await ctx.db.query('SELECT 1 FROM project WHERE id = $1', [Number(projectId)]),
      ).toHaveLength(1);
    });
  });

  describe('has_wallet', () => {
    it('turns true when the wallet service announces a project wallet (wallet.wallet.created)', async () => {
      const projectId = await ctx.newProject(orgId, owner, 'Funded');
      const codec = JSONCodec();
      const nc = await connect({ servers: TEST_SERVERS.nats });
      try {
        const js = nc.jetstream();
        const event = (entityType: string, entityId: string) => ({
          id: randomUUID(),
          subject: 'wallet.wallet.created',
          occurredAt: new Date().toISOString(),
          payload: {
            addressHash: `0x${'a'.repeat(40)}`,
            entityType,
            entityId,
            purpose: 'project_funds',
            currency: 'CREDITS',
          },
        });
        // a wallet of another kind with the same id, and one for an unknown project, change nothing
        for (const e of [
          event('organization', projectId),
          event('project', '999999'),
          event('project', projectId),
        ]) {
          await js.publish(`${ctx.namespace}.wallet.wallet.created`, codec.encode(e), {
            msgID: e.id,
          });
        }
      } finally {
        await nc.close();
      }
      await waitFor(
        async () => {
          const res = await ctx.request('GET', `${P()}/${projectId}`, { token: owner.token });
          return res.body.data.attributes.hasWallet === true;
        },
        { what: 'hasWallet' },
      );
      const filtered = await ctx.request('GET', `${P()}?has_wallet=true`, { token: owner.token });
      expect(filtered.body.data.map((p: any) => p.id)).toEqual([projectId]);
    });
  });
});
