import { testPlatformMode } from '@wp/testing';
import {
  loadOpenApiDocument,
  operationsOf,
  type FuzzOperation,
} from '../support/fuzz/operations.js';
import { SchemaValidRequests } from '../support/fuzz/schema-valid.js';
import { heal, send } from '../support/fuzz/sender.js';
import { FuzzTenant } from '../support/fuzz/tenant.js';

/** What ends the tenant's state goes last, one by one. */
function destructive(operation: FuzzOperation): boolean {
  return (
    operation.method === 'DELETE' ||
    /\/(token\/revoke|password\/change|rotate_key|revoke)$/.test(operation.template)
  );
}

/**
 * Requests that docs/openapi.json calls valid, sent through the gateway of a real platform
 * with a seeded tenant's ids in the path (docs/api-documentation.md § Schema-valid requests):
 * the share the server refuses with 400 measures how much looser the document is than the
 * validation. Each refusal is printed; the share must stay under 5 %.
 */
describe('requests the OpenAPI document calls valid', () => {
  let tenant: FuzzTenant;

  beforeAll(async () => {
    tenant = await FuzzTenant.start();
  }, 120_000);
  afterAll(() => tenant?.close());

  it('are refused with 400 in fewer than 5 % of cases', async () => {
    const document = loadOpenApiDocument();
    const generator = new SchemaValidRequests(document);
    const operations = operationsOf(document);
    const refused: string[] = [];
    let count = 0;
    const run = async (operation: FuzzOperation) => {
      for (const request of generator.requestsFor(tenant, operation)) {
        const answer = await send(tenant, request);
        count++;
        if (answer.status === 400) {
          refused.push(
            `${operation.method} ${operation.template} (${request.mutation}) ` +
              `${JSON.stringify(request.body ?? request.query).slice(0, 200)} → ` +
              answer.body.slice(0, 300),
          );
        }
        await heal(tenant, operation, request, answer);
      }
    };
    const queue = operations.filter((o) => !destructive(o));
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await run(next);
      }),
    );
    for (const operation of operations.filter(destructive)) await run(operation);
    const share = refused.length / count;
    process.stdout.write(
      `schema-valid requests (${testPlatformMode()} mode): ${count} sent, ${refused.length} ` +
        `refused with 400 (${(share * 100).toFixed(1)} %)\n${refused.join('\n')}\n`,
    );
    expect(share).toBeLessThan(0.05);
  }, 180_000);
});
