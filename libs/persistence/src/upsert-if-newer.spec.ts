import { upsertIfNewerSql } from './upsert-if-newer.js';

describe('upsertIfNewerSql (docs/architecture.md § Consistency)', () => {
  const row = {
    table: 'directory_user',
    key: ['id'],
    order: 'occurred_at',
    values: { id: 'u1', email: 'a@example.com', status: 'active', occurred_at: '2026-01-01' },
  };

  it('replaces the stored row only when the incoming one is not older (or the stored has none)', () => {
    const { text, values } = upsertIfNewerSql(row);
    expect(text).toContain('ON CONFLICT ("id") DO UPDATE SET "email" = EXCLUDED."email"');
    expect(text).toContain(
      'WHERE "directory_user"."occurred_at" IS NULL OR "directory_user"."occurred_at" <= EXCLUDED."occurred_at"',
    );
    expect(text).not.toContain('"id" = EXCLUDED."id"');
    expect(values).toEqual(['u1', 'a@example.com', 'active', '2026-01-01']);
  });

  it('with ties kept, only a strictly newer write replaces (versions)', () => {
    expect(upsertIfNewerSql({ ...row, ties: 'keep' }).text).toContain(
      '"directory_user"."occurred_at" < EXCLUDED."occurred_at"',
    );
  });

  it('leaves insert-only columns out of the update', () => {
    const { text } = upsertIfNewerSql({ ...row, insertOnly: ['status'] });
    expect(text).toContain('"status"'); // inserted
    expect(text).not.toContain('"status" = EXCLUDED."status"');
  });

  it('refuses a row without its key or order column, and identifiers that are not plain', () => {
    expect(() => upsertIfNewerSql({ ...row, order: 'version' })).toThrow(/version/);
    expect(() =>
      upsertIfNewerSql({ ...row, table: 'directory_user; DROP TABLE x', values: row.values }),
    ).toThrow(/identifier/);
  });
});
