import { OrgTestContext, type TestUser } from './org-test-app.js';

/**
 * The organization of the Sentinel Pass tests (apps/org/test/e2e/sentinel-pass-*.e2e-spec.ts):
 * OWNER, ADMIN, MEMBER and VIEWER of `orgId`; MEMBER and VIEWER also members of `projectId`
 * (not of `secondProjectId`); `outsider` in no organization, `stranger` OWNER of `otherOrgId`.
 * `S` is the passes path of `projectId`.
 */
export interface SentinelPassWorld {
  ctx: OrgTestContext;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  viewer: TestUser;
  outsider: TestUser;
  stranger: TestUser;
  orgId: string;
  otherOrgId: string;
  projectId: string;
  secondProjectId: string;
  S: string;
}

/** Starts the org service (and auth beside it) and creates the {@link SentinelPassWorld}. */
export async function startSentinelPassWorld(): Promise<SentinelPassWorld> {
  const ctx = await OrgTestContext.start();
  try {
    const [owner, admin, member, viewer, outsider, stranger] = await Promise.all(
      ['owner', 'admin', 'member', 'viewer', 'outsider', 'stranger'].map((l) => ctx.newUser(l)),
    );
    const orgId = await ctx.newOrganization(owner, 'Sentinel');
    const otherOrgId = await ctx.newOrganization(stranger, 'Elsewhere');
    await ctx.addMember(orgId, owner, admin, 'ADMIN');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
    await ctx.addMember(orgId, owner, viewer, 'VIEWER');
    const projectId = await ctx.newProject(orgId, owner, 'Agents');
    const secondProjectId = await ctx.newProject(orgId, owner, 'Other agents');
    await ctx.addProjectMember(orgId, projectId, owner, member, 'MEMBER');
    await ctx.addProjectMember(orgId, projectId, owner, viewer, 'VIEWER');
    const S = `/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
    return {
      ctx,
      owner,
      admin,
      member,
      viewer,
      outsider,
      stranger,
      orgId,
      otherOrgId,
      projectId,
      secondProjectId,
      S,
    };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}

/**
 * Declares the test file's world: `beforeAll` starts it and fills in the returned object (read its
 * fields inside tests, not while the suite is being declared), `afterAll` closes it.
 */
export function useSentinelPassWorld(): SentinelPassWorld {
  const world = {} as SentinelPassWorld;
  beforeAll(async () => {
    Object.assign(world, await startSentinelPassWorld());
  });
  afterAll(() => world.ctx?.close());
  return world;
}

/** Requests and reads of the Sentinel Pass tests, bound to the test file's world. */
export function sentinelPassHelpers(world: SentinelPassWorld) {
  const create = async (
    attributes: Record<string, unknown>,
    as: TestUser = world.owner,
    path = world.S,
  ) => {
    const res = await world.ctx.request('POST', path, {
      token: as.token,
      body: { sentinelPass: attributes },
    });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    return { pass: res.body.data, secret: res.body.meta.secret as string };
  };
  const passEvents = async (passId: string) =>
    (await world.ctx.outbox('org.sentinel_pass.changed'))
      .map((e) => e.payload)
      .filter((p) => p.passId === passId);
  const storedHash = async (passId: string): Promise<string | undefined> =>
    (await world.ctx.db.query('SELECT key_hash FROM sentinel_pass WHERE id = $1', [passId]))[0]
      ?.key_hash;
  const toolsCount = async (id = world.projectId): Promise<number> =>
    (await world.ctx.db.query('SELECT tools_count FROM project WHERE id = $1', [Number(id)]))[0]
      .tools_count;
  const countPasses = async (): Promise<number> =>
    (await world.ctx.db.query('SELECT count(*)::int AS n FROM sentinel_pass'))[0].n;
  return { create, passEvents, storedHash, toolsCount, countPasses };
}
