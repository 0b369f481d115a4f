import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '@wp/contracts';

/**
 * docs/webhooks.md § Event catalog names every public webhook event type the code knows, and
 * nothing the code does not know: the page is what receivers read.
 */
describe('docs/webhooks.md', () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'webhooks.md'), 'utf8');
  const catalog = page.slice(page.indexOf('## Event catalog'), page.indexOf('## Sources'));

  it('lists every event type in the catalog table', () => {
    const missing = WEBHOOK_EVENT_TYPES.filter((type) => !catalog.includes(`\`${type}\``));
    expect(missing).toEqual([]);
  });

  it('lists no type the code does not know', () => {
    const known = new Set<string>(WEBHOOK_EVENT_TYPES);
    const rows = catalog.split('\n').filter((line) => line.startsWith('| `'));
    const named = rows.flatMap((row) =>
      [...row.split('|')[1].matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]),
    );
    expect(named.filter((type) => !known.has(type))).toEqual([]);
    expect(named.length).toBeGreaterThanOrEqual(WEBHOOK_EVENT_TYPES.length);
  });
});
