import { CacheRebuilder, TenantVersionStore, type CacheWriter } from '@wp/security';
import type { RpcClient } from '../rpc.js';
import { PermissionFreshness, type MembershipRoles } from './permission-freshness.js';

const USER = '3f8b1c2e-8a4d-4e1f-9c3b-2d7e6f5a4b3c';

/** A required-version store of our own: one number per tenant, or failing, or emptied. */
class FakeStore extends TenantVersionStore {
  versions = new Map<string, number>();
  down = false;
  /** Lost its content and not rebuilt: cannot vouch for any version. */
  emptied = false;
  raise(tenantId: string, version: number): Promise<void> {
    this.versions.set(tenantId, Math.max(version, this.versions.get(tenantId) ?? 0));
    return Promise.resolve();
  }
  current(tenantId: string): Promise<number | null> {
    if (this.down) return Promise.reject(new Error('store down'));
    if (this.emptied) return Promise.resolve(null);
    return Promise.resolve(this.versions.get(tenantId) ?? 0);
  }
  restore(): Promise<void> {
    this.emptied = false;
    return Promise.resolve();
  }
}

/** Records who was asked to rebuild. */
class FakeRebuilder extends CacheRebuilder {
  requested: CacheWriter[] = [];
  register(): void {}
  request(writers: readonly CacheWriter[]): void {
    this.requested.push(...writers);
  }
}

const admin = (appliedVersion: number): MembershipRoles => ({
  organizationRole: 'ADMIN',
  projectRole: null,
  accessDenied: false,
  appliedVersion,
});
const viewer: MembershipRoles = {
  organizationRole: 'VIEWER',
  projectRole: null,
  accessDenied: false,
};

function setup() {
  const store = new FakeStore();
  const rebuilder = new FakeRebuilder();
  const request = jest.fn(() => Promise.resolve(viewer));
  const freshness = new PermissionFreshness(store, { request } as unknown as RpcClient, rebuilder);
  return { store, request, freshness, rebuilder };
}

describe('PermissionFreshness.current', () => {
  it('loads the roles once while the required version stays where they were read', async () => {
    const { store, request, freshness } = setup();
    await store.raise('7', 3);
    const load = jest.fn(() => Promise.resolve(admin(3)));
    expect(await freshness.current(USER, 7, null, load)).toEqual(admin(3));
    expect(await freshness.current(USER, 7, null, load)).toEqual(admin(3));
    expect(load).toHaveBeenCalledTimes(1);
    expect(request).not.toHaveBeenCalled();
  });

  it('reloads once the required version passed them, and asks org while the read model is behind', async () => {
    const { store, request, freshness } = setup();
    await store.raise('7', 3);
    const load = jest.fn(() => Promise.resolve(admin(3)));
    await freshness.current(USER, 7, null, load);
    await store.raise('7', 4); // a withdrawal answered by org, not yet applied here
    expect(await freshness.current(USER, 7, null, load)).toEqual(viewer);
    expect(load).toHaveBeenCalledTimes(2);
    expect(request).toHaveBeenCalledWith(
      'org.rpc.memberships.standing',
      { organizationId: 7, projectId: null, userId: USER },
      1000,
    );
  });

  it('keeps roles apart per organization and project', async () => {
    const { store, freshness } = setup();
    await store.raise('7', 1);
    await store.raise('8', 1);
    await freshness.current(USER, 7, null, () => Promise.resolve(admin(1)));
    const other = jest.fn(() => Promise.resolve({ ...viewer, appliedVersion: 1 }));
    expect(await freshness.current(USER, 8, null, other)).toEqual({ ...viewer, appliedVersion: 1 });
    expect(await freshness.current(USER, 7, 5, other)).toEqual({ ...viewer, appliedVersion: 1 });
    expect(other).toHaveBeenCalledTimes(2);
  });

  it('remembers nothing while no version is required (the store may have lost it)', async () => {
    const { freshness } = setup();
    const load = jest.fn(() => Promise.resolve(admin(0)));
    await freshness.current(USER, 7, null, load);
    await freshness.current(USER, 7, null, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('fails closed with 503 when the store does not answer, remembered roles or not', async () => {
    const { store, freshness } = setup();
    await store.raise('7', 2);
    await freshness.current(USER, 7, null, () => Promise.resolve(admin(2)));
    store.down = true;
    await expect(
      freshness.current(USER, 7, null, () => Promise.resolve(admin(2))),
    ).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });

  it('asks org, and org to rebuild, when the store lost the required version (never trusts the read model)', async () => {
    const { store, request, freshness, rebuilder } = setup();
    await store.raise('7', 4);
    const load = jest.fn(() => Promise.resolve(admin(3)));
    store.emptied = true; // Redis restarted empty: version 4 is gone until org rebuilds
    expect(await freshness.current(USER, 7, null, load)).toEqual(viewer);
    expect(await freshness.confirm(USER, 7, null, admin(3))).toEqual(viewer);
    expect(request).toHaveBeenCalledTimes(2);
    expect(rebuilder.requested).toEqual(['org', 'org']);
  });
});
