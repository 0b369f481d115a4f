import {
  escapeLike,
  PROJECT_SORT_KEYS,
  PROJECT_SORT_SQL,
  PROJECT_SORT_VALUES,
} from './project-list.js';

describe('project list helpers', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('100%_done\\x')).toBe('100\\%\\_done\\\\x');
    expect(escapeLike('plain')).toBe('plain');
  });

  it('accepts every sort key with and without a leading -', () => {
    expect(PROJECT_SORT_VALUES).toHaveLength(PROJECT_SORT_KEYS.length * 2);
    for (const key of PROJECT_SORT_KEYS) {
      expect(PROJECT_SORT_VALUES).toEqual(expect.arrayContaining([key, `-${key}`]));
      expect(PROJECT_SORT_SQL[key].expr).toMatch(/^(lower\(p\.name\) COLLATE "C"|p\.\w+)$/);
    }
  });

  it('puts the most recent activity first for recent_activity, ascending otherwise', () => {
    expect(PROJECT_SORT_SQL.recent_activity.natural).toBe('DESC');
    expect(PROJECT_SORT_SQL.name.natural).toBe('ASC');
    expect(PROJECT_SORT_SQL.alphabetical).toEqual(PROJECT_SORT_SQL.name);
  });
});
