import fc from 'fast-check';
import { propertyPaths, type FuzzOperation, type OpenApiDocument } from './operations.js';
import { setAt, type FuzzRequest } from './fuzz-request.js';

/** JSON values worth trying anywhere: wrong types, edges of numbers and strings. */
const edgeValues = fc.constantFrom<unknown>(
  null,
  '',
  ' ',
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  true,
  false,
  [],
  {},
  [null],
  'null',
  '0x',
  'x'.repeat(5000),
  '\u0000',
  '\uD800',
  '😀'.repeat(300),
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '2026-02-30T25:61:00Z',
  '1e999',
  '-0',
  { $ne: null },
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
);

const anyValue = fc.oneof(
  { arbitrary: edgeValues, weight: 3 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 300 }), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
);

const pathGarbage = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '99999999999999999999',
    'null',
    '00000000-0000-0000-0000-000000000000',
    'a'.repeat(150),
    '..',
    '%',
    ' ',
    '0x' + 'f'.repeat(40),
  ),
  fc.uuid().map(String),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.integer().map(String),
);

/**
 * Mutations of a valid request, as fast-check arbitraries: a body field replaced by another
 * value or removed, an unknown field added, the whole body replaced (any JSON, text, a deep
 * nest), a path parameter or query value replaced, a credential dropped or forged, the media
 * type changed.
 */
export function mutations(
  document: OpenApiDocument,
  operation: FuzzOperation,
): fc.Arbitrary<(r: FuzzRequest) => FuzzRequest> {
  const paths = operation.body ? propertyPaths(document, operation.body) : [];
  const json = (r: FuzzRequest) => (r.body && 'json' in r.body ? r.body.json : undefined);
  const options: fc.Arbitrary<(r: FuzzRequest) => FuzzRequest>[] = [
    fc.constantFrom('api-key', 'authorization', 'admin-access').chain((header) =>
      fc
        .constantFrom<string | null>(null, '', 'Bearer x.y.z', 'garbage', 'Basic Og==')
        .map((value) => (r: FuzzRequest) => {
          const headers = { ...r.headers };
          if (value === null) delete headers[header];
          else headers[header] = value;
          return { ...r, headers, mutation: `header ${header}=${String(value)}` };
        }),
    ),
    fc
      .dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 3 })
      .map((extra) => (r: FuzzRequest) => ({
        ...r,
        query: { ...r.query, ...extra },
        mutation: `query ${JSON.stringify(extra)}`,
      })),
  ];
  if (operation.query.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...operation.query.map((q) => q.name)), fc.option(anyValue))
        .map(([name, value]) => (r: FuzzRequest) => ({
          ...r,
          query: { ...r.query, [name]: typeof value === 'string' ? value : JSON.stringify(value) },
          mutation: `query ${name}=${JSON.stringify(value)}`,
        })),
    );
  }
  if (operation.pathParameters.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...operation.pathParameters), pathGarbage)
        .map(([name, value]) => (r: FuzzRequest) => {
          let index = 0;
          const position = operation.pathParameters.indexOf(name);
          const segments = operation.template.split('/').map((segment) => {
            if (!segment.startsWith('{')) return segment;
            return index++ === position ? encodeURIComponent(value) : '';
          });
          const original = r.path.split('/');
          const path = segments.map((s, i) => (s === '' ? original[i] : s)).join('/');
          return { ...r, path, mutation: `path ${name}=${JSON.stringify(value)}` };
        }),
    );
  }
  if (paths.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...paths), anyValue).map(([path, value]) => (r: FuzzRequest) => ({
        ...r,
        body: { json: setAt(json(r), path, value) },
        mutation: `body ${path.join('.')}=${JSON.stringify(value)?.slice(0, 80)}`,
      })),
      fc.constantFrom(...paths).map((path) => (r: FuzzRequest) => ({
        ...r,
        body: { json: setAt(json(r), path, undefined, true) },
        mutation: `body without ${path.join('.')}`,
      })),
    );
  }
  if (operation.body || ['POST', 'PUT', 'PATCH'].includes(operation.method)) {
    options.push(
      fc.string({ maxLength: 30 }).map((key) => (r: FuzzRequest) => ({
        ...r,
        body: { json: setAt(json(r) ?? {}, [key || 'x'], 'unknown') },
        mutation: `body with unknown field ${JSON.stringify(key)}`,
      })),
      anyValue.map((value) => (r: FuzzRequest) => ({
        ...r,
        body: { json: value },
        mutation: `body=${JSON.stringify(value)?.slice(0, 80)}`,
      })),
      fc.integer({ min: 60, max: 20_000 }).map((levels) => (r: FuzzRequest) => ({
        ...r,
        body: { raw: `{"data":${'['.repeat(levels)}${']'.repeat(levels)}}` },
        mutation: `body nested ${levels} levels`,
      })),
      fc
        .tuple(
          fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', ''),
          fc.string({ maxLength: 60 }),
        )
        .map(([type, text]) => (r: FuzzRequest) => ({
          ...r,
          headers: { ...r.headers, 'content-type': type },
          body: { raw: text },
          mutation: `content-type ${JSON.stringify(type)} body ${JSON.stringify(text)}`,
        })),
    );
  }
  return fc.oneof(...options);
}

/** Garbage: the operation's path and method with any JSON or text as the body. */
export function garbage(): fc.Arbitrary<(r: FuzzRequest) => FuzzRequest> {
  return fc
    .oneof(
      fc.jsonValue().map((value) => ({ json: value })),
      fc.string({ unit: 'binary', maxLength: 500 }).map((text) => ({ raw: text })),
    )
    .map((body) => (r: FuzzRequest) => ({
      ...r,
      kind: 'garbage' as const,
      body: r.method === 'GET' || r.method === 'HEAD' ? undefined : body,
      mutation: `garbage ${JSON.stringify(body).slice(0, 80)}`,
    }));
}
