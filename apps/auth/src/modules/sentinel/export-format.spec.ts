import { exportChunks } from './export-format.js';
import type { ActivityLogEntry } from './activity.service.js';

const entry = (id: string): ActivityLogEntry => ({
  id,
  agent_user_id: 'a',
  timestamp: '2026-01-01T00:00:00.000Z',
  activity_type: 'api_request',
  service: 'org',
  endpoint: '/x',
  method: 'GET',
  status_code: 200,
  latency_ms: 1.5,
  success: true,
  client_address: null,
  error_message: null,
});

async function render(format: 'json' | 'jsonl' | 'csv', ids: string[]): Promise<string> {
  let out = '';
  for await (const chunk of exportChunks(ids.map(entry), format)) out += chunk;
  return out;
}

describe('export formats', () => {
  it('writes a CSV row per entry: booleans as words, null empty, RFC 4180 quoting', async () => {
    const rows = [{ ...entry('1'), endpoint: '/a,b', error_message: 'say "hi"\nagain' }];
    let csv = '';
    for await (const chunk of exportChunks(rows, 'csv')) csv += chunk;
    expect(csv).toBe(
      'id,agent_user_id,timestamp,activity_type,service,endpoint,method,status_code,latency_ms,' +
        'success,client_address,error_message\r\n' +
        '1,a,2026-01-01T00:00:00.000Z,api_request,org,"/a,b",GET,200,1.5,true,,' +
        '"say ""hi""\nagain"\r\n',
    );
  });

  it('renders json as a parseable array, also when empty', async () => {
    expect(JSON.parse(await render('json', []))).toEqual([]);
    expect(
      (JSON.parse(await render('json', ['1', '2'])) as { id: string }[]).map((e) => e.id),
    ).toEqual(['1', '2']);
  });

  it('renders jsonl one entry per line and csv with a header row and CRLF', async () => {
    expect((await render('jsonl', ['1', '2'])).split('\n')).toHaveLength(3);
    const csv = await render('csv', ['1']);
    expect(csv.split('\r\n')[0]).toMatch(/^id,agent_user_id,timestamp,/);
    expect(csv.split('\r\n')).toHaveLength(3);
  });
});
