import { ValidationFailedError } from '@wp/http';
import {
  canonicalLanguage,
  parseOnboardingBody,
  parseSettingsBody,
  parseStepId,
} from './user-settings.input.js';

/** Pointers of the 400 a body gets, or null when it is accepted. */
function pointers(run: () => unknown): string[] | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof ValidationFailedError)) throw error;
    return error.toItems().map((i) => i.source?.pointer ?? i.source?.parameter ?? '?');
  }
}

describe('parseSettingsBody', () => {
  it('reads the settings form, integer and UUID ids, null clears', () => {
    expect(
      parseSettingsBody({
        theme: 'dark',
        language: 'EN-gb',
        sidebar_open: false,
        current_organization_id: 7,
        current_project_id: 'A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D',
      }),
    ).toEqual({
      form: 'settings',
      theme: 'dark',
      language: 'en-GB',
      sidebarOpen: false,
      currentOrganizationId: { kind: 'int', id: 7 },
      currentProjectId: { kind: 'uuid', id: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d' },
    });
    expect(parseSettingsBody({ current_project_id: null })).toEqual({
      form: 'settings',
      currentProjectId: null,
    });
  });

  it('reads the pinned-projects form in array order', () => {
    expect(
      parseSettingsBody({ setting_key: 'sidebar', organization_id: 3, pinned_project_ids: [9, 4] }),
    ).toEqual({ form: 'pins', organizationId: 3, projectIds: [9, 4] });
  });

  it('reports every problem with its pointer', () => {
    expect(pointers(() => parseSettingsBody({ a: 1, theme: 'x', language: 'e_n' }))).toEqual([
      '/a',
      '/theme',
      '/language',
    ]);
    expect(
      pointers(() =>
        parseSettingsBody({
          setting_key: 'sidebar',
          organization_id: 1,
          pinned_project_ids: [2, 2, 3, 3],
        }),
      ),
    ).toEqual(['/pinned_project_ids/1', '/pinned_project_ids/3']);
    expect(pointers(() => parseSettingsBody('theme=dark'))).toEqual(['']);
    expect(pointers(() => parseSettingsBody({ 'a/b': 1 }))).toEqual(['/a~1b']);
  });
});

describe('parseOnboardingBody and parseStepId', () => {
  it('defaults to true and keeps any JSON value up to 4 KiB', () => {
    expect(parseOnboardingBody(undefined)).toBe(true);
    expect(parseOnboardingBody({})).toBe(true);
    expect(parseOnboardingBody({ value: null })).toBeNull();
    expect(parseOnboardingBody({ value: [1, { a: 'b' }] })).toEqual([1, { a: 'b' }]);
    expect(pointers(() => parseOnboardingBody({ value: 'é'.repeat(2048) }))).toEqual(['/value']);
  });

  it('accepts step ids matching ^[a-z0-9_]{1,64}$ only', () => {
    expect(parseStepId('sentinel_pass_discovered')).toBe('sentinel_pass_discovered');
    for (const bad of ['', 'A', 'a-b', 'a.b', 'x'.repeat(65)]) {
      expect(pointers(() => parseStepId(bad))).toEqual(['stepId']);
    }
  });
});

describe('canonicalLanguage', () => {
  it('canonicalizes well-formed BCP 47 tags and refuses the rest', () => {
    expect(canonicalLanguage('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLanguage('de')).toBe('de');
    for (const bad of ['en_US', '', 'e', 'en--US', 42, null]) {
      expect(canonicalLanguage(bad)).toBeNull();
    }
  });
});
