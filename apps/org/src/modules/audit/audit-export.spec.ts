import { auditExportChunks, type AuditExportRecord } from './audit-export.js';
import { decodeCursor, encodeCursor } from '@wp/http';

const record = (id: string, label: string | null): AuditExportRecord => ({
  id,
  occurred_at: '2026-11-25T10:00:00.000Z',
  action: 'member.added',
  outcome: 'success',
  actor_type: 'user',
  actor_id: 'u1',
  actor_email: 'ada@example.com',
  target_type: 'user',
  target_id: 'u2',
  target_label: label,
  client_address: '10.0.0.1',
  request_id: 'r1',
  user_agent: null,
  service: 'org',
  details: { role: 'ADMIN', note: 'a, "b"' },
});

const collect = async (gen: AsyncGenerator<string>) => {
  let out = '';
  for await (const chunk of gen) out += chunk;
  return out;
};

describe('audit log export', () => {
  it('quotes CSV fields per RFC 4180, null as empty, and writes details as JSON', async () => {
    const csv = await collect(auditExportChunks([{ ...record('e1', 'a,b'), details: {} }], 'csv'));
    expect(csv.split('\r\n')[1]).toBe(
      'e1,2026-11-25T10:00:00.000Z,member.added,success,user,u1,ada@example.com,user,u2,' +
        '"a,b",10.0.0.1,r1,,org,{}',
    );
  });

  it('writes csv with a header and CRLF rows, jsonl one object per line, json one array', async () => {
    const rows = [record('e1', 'x'), record('e2', 'line\nbreak')];
    const csv = await collect(auditExportChunks(rows, 'csv'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toMatch(/^id,occurred_at,action,outcome,actor_type,/);
    expect(lines[1]).toContain('"{""role"":""ADMIN"",""note"":""a, \\""b\\""""}"');
    expect(csv).toContain('"line\nbreak"');
    const jsonl = await collect(auditExportChunks(rows, 'jsonl'));
    expect(
      jsonl
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['e1', 'e2']);
    expect(JSON.parse(await collect(auditExportChunks(rows, 'json')))).toHaveLength(2);
    expect(JSON.parse(await collect(auditExportChunks([], 'json')))).toEqual([]);
  });

  it('round-trips cursors and refuses any other value as 400 on `cursor`', () => {
    const cursor = {
      at: '2026-11-25 10:00:00.123456+00',
      id: '6f1c2b9e-7d0a-4b8e-9f3c-2a1b0c9d8e7f',
    };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const bad of ['', 'abc', Buffer.from('x|y').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED' }),
      );
    }
  });
});
