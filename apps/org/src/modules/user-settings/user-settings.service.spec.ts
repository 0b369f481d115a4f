import type { Principal } from '@wp/security';
import type { TxHost } from '@wp/persistence';
import type { InvitationsService } from '../invitations/invitations.service.js';
import type { Sidebar, SidebarBuilder } from './sidebar.js';
import type { PinsInput, SettingsInput } from './user-settings.input.js';
import type { SettingsPatch, UserSettingsRepository } from './user-settings.repository.js';
import { UserSettingsService } from './user-settings.service.js';

const ADA = { id: 'u-ada', type: 'user', claims: {} } as Principal;

/** The caller's sidebar: organization 7 with projects 70 and 71; nothing else is hers. */
const SIDEBAR = {
  organizations: [
    {
      organization: { id: 7 },
      role: 'MEMBER',
      twoFactorBlocked: false,
      projects: [{ project: { id: 70 } }, { project: { id: 71 } }],
      pins: [],
    },
  ],
} as unknown as Sidebar;

/**
 * UserSettingsService.update with stand-ins of its repository (records every write), sidebar
 * (SIDEBAR) and transaction; `get`, the rendering after the write, is not under test here.
 */
function setup(options: { upsertFails?: Error } = {}) {
  const writes: unknown[][] = [];
  const repository = {
    findPins: () => Promise.resolve([]),
    upsert: (userId: string, client: string, patch: SettingsPatch) => {
      if (options.upsertFails) return Promise.reject(options.upsertFails);
      writes.push(['upsert', userId, client, patch]);
      return Promise.resolve();
    },
    replacePins: (userId: string, organizationId: number, projectIds: number[]) => {
      writes.push(['pins', userId, organizationId, projectIds]);
      return Promise.resolve();
    },
  };
  const txHost = { withTransaction: (work: () => unknown) => work() };
  const service = new UserSettingsService(
    txHost as unknown as TxHost,
    repository as unknown as UserSettingsRepository,
    { build: () => Promise.resolve(SIDEBAR) } as unknown as SidebarBuilder,
    {} as InvitationsService,
  );
  jest.spyOn(service, 'get').mockResolvedValue({} as Awaited<ReturnType<typeof service.get>>);
  const update = (input: SettingsInput | PinsInput) => service.update(ADA, 'web', input);
  const refusal = (input: SettingsInput | PinsInput) =>
    update(input).then(
      () => 'written',
      (error: { code?: string; source?: unknown }) => [error.code, error.source],
    );
  return { writes, update, refusal };
}

describe('UserSettingsService.update (settings merge)', () => {
  it('writes only the fields sent: absent ones are kept, null clears', async () => {
    const { writes, update } = setup();
    await update({ form: 'settings', theme: 'dark' });
    await update({ form: 'settings', currentOrganizationId: null, currentProjectId: null });
    expect(writes).toEqual([
      [
        'upsert',
        'u-ada',
        'web',
        {
          theme: 'dark',
          language: undefined,
          sidebarOpen: undefined,
          currentOrganizationId: undefined,
          currentProjectId: undefined,
        },
      ],
      [
        'upsert',
        'u-ada',
        'web',
        expect.objectContaining({
          theme: undefined,
          currentOrganizationId: null,
          currentProjectId: null,
        }),
      ],
    ]);
  });

  it('stores a current organization and project only when the sidebar shows them', async () => {
    const { writes, update, refusal } = setup();
    await update({
      form: 'settings',
      currentOrganizationId: { kind: 'int', id: 7 },
      currentProjectId: { kind: 'int', id: 71 },
    });
    expect(writes[0]?.[3]).toMatchObject({ currentOrganizationId: 7, currentProjectId: 71 });
    expect(
      await refusal({
        form: 'settings',
        theme: 'dark',
        currentOrganizationId: { kind: 'int', id: 8 },
      }),
    ).toEqual(['ORGANIZATION_NOT_ACCESSIBLE', { pointer: '/current_organization_id' }]);
    expect(
      await refusal({ form: 'settings', currentProjectId: { kind: 'uuid', id: 'a-uuid' } }),
    ).toEqual(['PROJECT_NOT_ACCESSIBLE', { pointer: '/current_project_id' }]);
    expect(writes).toHaveLength(1);
  });

  it('turns a project deleted between check and write into PROJECT_NOT_ACCESSIBLE', async () => {
    // TypeORM's QueryFailedError carries the driver's error, here a foreign key violation.
    const violation = Object.assign(new Error('fk'), { driverError: { code: '23503' } });
    const { refusal } = setup({ upsertFails: violation });
    expect(await refusal({ form: 'settings', currentProjectId: { kind: 'int', id: 70 } })).toEqual([
      'PROJECT_NOT_ACCESSIBLE',
      { pointer: '/current_project_id' },
    ]);
  });

  it('replaces pins only with projects of that organization the caller sees', async () => {
    const { writes, update, refusal } = setup();
    await update({ form: 'pins', organizationId: 7, projectIds: [71, 70] });
    expect(writes).toEqual([['pins', 'u-ada', 7, [71, 70]]]);
    expect(await refusal({ form: 'pins', organizationId: 7, projectIds: [70, 99] })).toEqual([
      'PROJECT_NOT_ACCESSIBLE',
      { pointer: '/pinned_project_ids/1' },
    ]);
    expect(await refusal({ form: 'pins', organizationId: 8, projectIds: [] })).toEqual([
      'ORGANIZATION_NOT_ACCESSIBLE',
      { pointer: '/organization_id' },
    ]);
    expect(writes).toHaveLength(1);
  });
});
