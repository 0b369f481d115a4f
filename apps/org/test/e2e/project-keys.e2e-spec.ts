import { createHash } from 'node:crypto';
import { AesGcmEnvelope } from '@wp/security';
import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/api.md § Projects (`api_keys`, `llm_api_keys`), docs/api.md § Organizations (`api_keys`,
 * `llm_api_keys` listings), docs/api.md § Project API key, docs/api.md § LLM API key;
 * docs/architecture.md § Decisions where the contract is silent: secrets sealed with AES-256-GCM
 * (key version stored), LLM keys only ever masked, and `org.project.keys.changed` carrying the full
 * current set after every change.
 */
describe('project API keys and LLM keys', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let orgId: string;
  let projectId: string;
  let P: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    admin = await ctx.newUser('admin');
    member = await ctx.newUser('member');
    orgId = await ctx.newOrganization(owner, 'Keys');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
    projectId = await ctx.newProject(orgId, owner, 'Keyed');
    await ctx.addProjectMember(orgId, projectId, owner, member, 'MEMBER');
    P = `/organizations/${orgId}/projects/${projectId}`;
  });
  afterAll(() => ctx.close());

  const box = () => AesGcmEnvelope.fromConfig(ctx.env.env['SECRETS_ENCRYPTION_KEY']);
  const lastKeysEvent = async () => {
    const events = (await ctx.outbox('org.project.keys.changed')).filter(
      (e) => e.payload.projectId === Number(projectId),
    );
    return events.at(-1)!.payload;
  };
  const storedKeys = () =>
    ctx.db.query(
      `SELECT id, public_key, encrypted_secret_key, secret_key_version, secret_key_sha256, expires_at
       FROM project_api_key WHERE project_id = $1 ORDER BY created_at, id`,
      [Number(projectId)],
    );

  describe('API keys', () => {
    it('creates a pair (201): secret shown once in meta.secretKey, sealed at rest, announced with the full set', async () => {
      const expiresAt = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
      const before = await lastKeysEvent();
      const res = await ctx.request('POST', `${P}/api_keys`, {
        token: admin.token,
        body: { data: { attributes: { note: 'CI', expires_at: expiresAt } } },
      });
      expect(res.status).toBe(201);
      const { data, meta } = res.body;
      expect(data).toMatchObject({
        type: 'apiKey',
        attributes: { note: 'CI', expires_at: expiresAt },
      });
      expect(data.attributes.publicKey).toMatch(/^pk_[0-9a-f]{32}$/);
      expect(meta.secretKey).toMatch(/^sk_[0-9a-f]{64}$/);
      expect(data.attributes.encryptedSecretKey).not.toContain(meta.secretKey);

      const rows = await storedKeys();
      const row = rows.find((r: any) => r.id === data.id);
      // encryption at rest: the raw column never holds the plaintext; it opens with the master key
      expect(row.encrypted_secret_key).not.toContain(meta.secretKey);
      expect(row.encrypted_secret_key).not.toContain(meta.secretKey.slice(3));
      expect(row.encrypted_secret_key).toBe(data.attributes.encryptedSecretKey);
      expect(box().decrypt(row.encrypted_secret_key)).toBe(meta.secretKey);
      expect(row.secret_key_version).toBe(1);
      expect(row.secret_key_sha256).toBe(createHash('sha256').update(meta.secretKey).digest('hex'));
      const [{ n }] = await ctx.db.query(
        `SELECT count(*)::int AS n FROM project_api_key WHERE encrypted_secret_key LIKE '%' || $1 || '%'
           OR public_key LIKE '%' || $1 || '%' OR note LIKE '%' || $1 || '%'`,
        [meta.secretKey.slice(3)],
      );
      expect(n).toBe(0);

      const event = await lastKeysEvent();
      expect(event.version).toBe(before.version + 1);
      expect(event.keys).toEqual(
        rows.map((r: any) => ({
          id: r.id,
          publicKey: r.public_key,
          secretKeySha256: r.secret_key_sha256,
          expiresAt: r.expires_at ? new Date(r.expires_at).toISOString() : null,
        })),
      );
      expect(event.keys).toHaveLength(2);
    });

    it('rejects an expires_at in the past or malformed, and a missing note (400); nothing is stored', async () => {
      const before = (await storedKeys()).length;
      const cases: [unknown, string][] = [
        [
          { data: { attributes: { note: 'old', expires_at: '2020-01-01T00:00:00Z' } } },
          '/data/attributes/expires_at',
        ],
        [
          { data: { attributes: { note: 'bad', expires_at: 'next week' } } },
          '/data/attributes/expires_at',
        ],
        [{ data: { attributes: { note: '  ' } } }, '/data/attributes/note'],
        [{ note: 'top level is not the contract form' }, '/data'],
      ];
      for (const [body, pointer] of cases) {
        const res = await ctx.request('POST', `${P}/api_keys`, { token: owner.token, body });
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
      }
      expect(await storedKeys()).toHaveLength(before);
    });

    it('changes the note (PATCH) and deletes a pair (204), announcing the new set each time', async () => {
      const created = await ctx.request('POST', `${P}/api_keys`, {
        token: owner.token,
        body: { data: { attributes: { note: 'temp' } } },
      });
      const keyId = created.body.data.id;
      const patched = await ctx.request('PATCH', `${P}/api_keys/${keyId}`, {
        token: owner.token,
        body: { data: { attributes: { note: 'renamed' } } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data.attributes.note).toBe('renamed');
      const afterPatch = await lastKeysEvent();
      expect(afterPatch.keys.map((k: any) => k.id)).toContain(keyId);

      const deleted = await ctx.request('DELETE', `${P}/api_keys/${keyId}`, { token: owner.token });
      expect(deleted.status).toBe(204);
      const afterDelete = await lastKeysEvent();
      expect(afterDelete.version).toBe(afterPatch.version + 1);
      expect(afterDelete.keys.map((k: any) => k.id)).not.toContain(keyId);
      expect((await storedKeys()).map((r: any) => r.id)).not.toContain(keyId);
      const gone = await ctx.request('DELETE', `${P}/api_keys/${keyId}`, { token: owner.token });
      expect(gone.status).toBe(404);
    });

    it('gives secret=true the oldest unexpired pair, skipping expired ones', async () => {
      const org = await ctx.newOrganization(owner, 'Expiry');
      const project = await ctx.defaultProject(org);
      const base = `/organizations/${org}/projects/${project}`;
      const second = await ctx.request('POST', `${base}/api_keys`, {
        token: owner.token,
        body: { data: { attributes: { note: 'second' } } },
      });
      await ctx.db.query(
        "UPDATE project_api_key SET expires_at = now() - interval '1 minute' WHERE project_id = $1 AND note = 'Default key'",
        [Number(project)],
      );
      const res = await ctx.request('GET', `${base}?secret=true`, { token: owner.token });
      expect(res.body.meta.secrets).toEqual({
        publicKey: second.body.data.attributes.publicKey,
        secretKey: second.body.meta.secretKey,
      });
      await ctx.request('DELETE', `${base}/api_keys/${second.body.data.id}`, {
        token: owner.token,
      });
      const none = await ctx.request('GET', `${base}?secret=true`, { token: owner.token });
      expect(none.body.meta.secrets).toBeNull();
    });

    it('refuses key changes to a project MEMBER (403) and unknown key ids (404)', async () => {
      const mark = await ctx.outboxMark();
      const create = await ctx.request('POST', `${P}/api_keys`, {
        token: member.token,
        body: { data: { attributes: { note: 'mine' } } },
      });
      expect(create.status).toBe(403);
      const [first] = await storedKeys();
      const del = await ctx.request('DELETE', `${P}/api_keys/${first.id}`, { token: member.token });
      expect(del.status).toBe(403);
      const unknown = await ctx.request(
        'PATCH',
        `${P}/api_keys/00000000-0000-4000-8000-000000000000`,
        {
          token: owner.token,
          body: { data: { attributes: { note: 'x' } } },
        },
      );
      expect(unknown.status).toBe(404);
      expect(await ctx.outbox(undefined, mark)).toEqual([]);
    });

    it('lists every pair of every project at GET /organizations/{id}/api_keys for ADMIN and OWNER only', async () => {
      const other = await ctx.newProject(orgId, owner, 'Other');
      const res = await ctx.request('GET', `/organizations/${orgId}/api_keys`, {
        token: admin.token,
      });
      expect(res.status).toBe(200);
      const projects = new Set(res.body.data.map((k: any) => k.attributes.projectId));
      expect(projects).toEqual(new Set([await ctx.defaultProject(orgId), projectId, other]));
      expect(
        res.body.data.every(
          (k: any) => k.type === 'apiKey' && /^v1\./.test(k.attributes.encryptedSecretKey),
        ),
      ).toBe(true);
      const denied = await ctx.request('GET', `/organizations/${orgId}/api_keys`, {
        token: member.token,
      });
      expect(denied.status).toBe(403);
    });

    it('keeps reading secrets sealed under an older master key after rotation (key version)', () => {
      const oldKey = ctx.env.env['SECRETS_ENCRYPTION_KEY'];
      const sealed = box().encrypt('sk_rotate_me');
      const rotated = AesGcmEnvelope.fromConfig(
        `v2:${Buffer.alloc(32, 7).toString('base64')},v1:${oldKey}`,
      );
      expect(rotated.decrypt(sealed)).toBe('sk_rotate_me');
      expect(AesGcmEnvelope.versionOf(rotated.encrypt('x'))).toBe(2);
    });
  });

  describe('LLM API keys', () => {
    const secret = 'sk-proj-SUPERSECRET-0123456789-wxyz';

    it('stores the provider key sealed and answers it masked (201)', async () => {
      const res = await ctx.request('POST', `${P}/llm_api_keys`, {
        token: admin.token,
        body: {
          data: {
            type: 'llm_api_keys',
            attributes: { provider: 'OpenAI', secretKey: secret, customModels: ['gpt-x-custom'] },
          },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        type: 'llm_api_keys',
        attributes: {
          provider: 'openai',
          secretKey: 'sk-…wxyz',
          customModels: ['gpt-x-custom'],
          withDefaultModels: true,
          projectId,
        },
      });
      expect(JSON.stringify(res.body)).not.toContain('SUPERSECRET');
      const [row] = await ctx.db.query('SELECT * FROM llm_api_key WHERE id = $1', [
        res.body.data.id,
      ]);
      expect(JSON.stringify(row)).not.toContain('SUPERSECRET');
      expect(box().decrypt(row.encrypted_secret_key)).toBe(secret);
      expect(row.secret_key_version).toBe(1);

      const listed = await ctx.request('GET', `/organizations/${orgId}/llm_api_keys`, {
        token: owner.token,
      });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((k: any) => k.attributes.secretKey)).toEqual(['sk-…wxyz']);
      expect(JSON.stringify(listed.body)).not.toContain('SUPERSECRET');
      const included = await ctx.request('GET', `${P}?include=llmApiKeys`, { token: owner.token });
      expect(JSON.stringify(included.body)).not.toContain('SUPERSECRET');
    });

    it('validates type, provider (documented list), secretKey and customModels (400)', async () => {
      const before = await ctx.db.query('SELECT count(*)::int AS n FROM llm_api_key');
      const res = await ctx.request('POST', `${P}/llm_api_keys`, {
        token: owner.token,
        body: {
          data: {
            type: 'llm_api_key',
            attributes: {
              provider: 'skynet',
              secretKey: 'short',
              customModels: 'gpt',
              withDefaultModels: 'yes',
            },
          },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
        '/data/attributes/customModels',
        '/data/attributes/provider',
        '/data/attributes/secretKey',
        '/data/attributes/withDefaultModels',
        '/data/type',
      ]);
      expect(await ctx.db.query('SELECT count(*)::int AS n FROM llm_api_key')).toEqual(before);
    });

    it('deletes (204), refuses a project MEMBER (403) and hides the org listing from MEMBERs (403)', async () => {
      const created = await ctx.request('POST', `${P}/llm_api_keys`, {
        token: owner.token,
        body: {
          data: {
            type: 'llm_api_keys',
            attributes: {
              provider: 'anthropic',
              secretKey: 'sk-ant-0000000000',
              withDefaultModels: false,
            },
          },
        },
      });
      expect(created.body.data.attributes.withDefaultModels).toBe(false);
      const byMember = await ctx.request('DELETE', `${P}/llm_api_keys/${created.body.data.id}`, {
        token: member.token,
      });
      expect(byMember.status).toBe(403);
      const ok = await ctx.request('DELETE', `${P}/llm_api_keys/${created.body.data.id}`, {
        token: owner.token,
      });
      expect(ok.status).toBe(204);
      expect(
        await ctx.db.query('SELECT 1 FROM llm_api_key WHERE id = $1', [created.body.data.id]),
      ).toEqual([]);
      const list = await ctx.request('GET', `/organizations/${orgId}/llm_api_keys`, {
        token: member.token,
      });
      expect(list.status).toBe(403);
    });
  });
});
