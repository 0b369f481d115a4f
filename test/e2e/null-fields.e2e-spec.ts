import {
  loadOpenApiDocument,
  operationsOf,
  propertyPaths,
  type FuzzOperation,
} from '../support/fuzz/operations.js';
import { credentials, setAt, validBody, validRequest } from '../support/fuzz/requests.js';
import { heal, send } from '../support/fuzz/sender.js';
import { FuzzTenant } from '../support/fuzz/tenant.js';

/**
 * `null` in any body field never reaches the database (docs/decisions.md § Wire format,
 * "Absent and null"): for every operation of docs/openapi.json with a JSON body and every field
 * its schema names (at any depth), the body of its required fields with that field set to
 * `null` is answered 4xx — or 2xx where `null` has a meaning — never 5xx, with a status the
 * document lists. The fields come from the document, not from a list kept by hand.
 */
describe('null in every body field of every operation', () => {
  let tenant: FuzzTenant;

  beforeAll(async () => {
    tenant = await FuzzTenant.start();
  }, 120_000);
  afterAll(() => tenant?.close());

  it('the role of a member or project member: null is a 400 naming the field', async () => {
    const O = `/v1/api/organizations/${tenant.ids['organizationId']}`;
    const routes = [
      `${O}/members/${tenant.member.id}/role`,
      `${O}/projects/${tenant.ids['projectId']}/members/${tenant.member.id}/role`,
    ];
    for (const path of routes) {
      for (const [body, pointer] of [
        [{ role: null }, '/role'],
        [{ data: { attributes: { role: null } } }, '/data/attributes/role'],
      ] as const) {
        const res = await tenant.stack.request('PATCH', path, { token: tenant.owner.token, body });
        expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
        expect(res.body.errors[0]).toMatchObject({
          code: 'VALIDATION_FAILED',
          source: { pointer },
        });
      }
    }
  });

  it('answers null in any field with a documented 4xx (or 2xx where null means something)', async () => {
    const document = loadOpenApiDocument();
    const last = (o: FuzzOperation) =>
      o.template.endsWith('/password/change') || o.method === 'DELETE';
    const operations = operationsOf(document)
      .filter((o) => o.body !== undefined)
      .sort((a, b) => Number(last(a)) - Number(last(b)));
    const problems: string[] = [];
    let count = 0;
    for (const operation of operations) {
      const minimal = validBody(document, tenant, operation, true) ?? {};
      for (const field of propertyPaths(document, operation.body)) {
        const request = {
          ...validRequest(document, tenant, operation),
          headers: credentials(tenant, operation),
          body: { json: setAt(minimal, field, null) },
        };
        const answer = await send(tenant, request);
        count++;
        if (answer.status >= 500 || !operation.statuses.has(answer.status)) {
          problems.push(
            `${operation.method} ${operation.template} ${JSON.stringify(request.body.json)} → ` +
              `${answer.failure ?? answer.status} ${answer.body.slice(0, 200)}`,
          );
        }
        await heal(tenant, operation, request, answer);
      }
    }
    process.stdout.write(`null fields: ${count} requests over ${operations.length} operations\n`);
    expect(count).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 240_000);
});
