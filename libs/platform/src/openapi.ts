import type { INestApplication } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { isCaseInsensitive, isZeroOneBoolean } from '@wp/http';
import { collectRouteFacts, securityOf, type RouteFacts } from './openapi-operations.js';
import { addExamples } from './openapi-examples.js';
import { controllerComments, forReaders } from './openapi-text.js';
import {
  addClassConstraints,
  applyRules,
  anyLetterCase,
  rulesOf,
  validatedClasses,
} from './openapi-constraints.js';
import {
  addErrorCodes,
  closeErrorSchemas,
  operationErrors,
  type FrameworkErrors,
  type OperationError,
} from './openapi-errors.js';

/** Path of a service's own OpenAPI document (internal: the gateway merges them at `/docs`). */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/**
 * A service's generated `src/openapi-metadata.ts` (scripts/openapi-metadata.js): the
 * @nestjs/swagger plugin metadata of its DTOs and controllers, the JSON Schema of each
 * controller method's answer (`responses[Controller][method]`, null: no body) and of its error
 * body, and the errors each method can answer (`errors[Controller][method]`) besides those of
 * the framework (`frameworkErrors`). docs/api-documentation.md § How the document is made.
 */
export interface OpenApiMetadata {
  default: () => Promise<Record<string, unknown>>;
  responses: Record<string, Record<string, OperationAnswer>>;
  errors: Record<string, Record<string, OperationError[]>>;
  frameworkErrors: FrameworkErrors;
  errorBody: object;
  errorBodyName: string;
}

/** What a controller method answers, read from its code by scripts/openapi-response-schemas.js. */
export interface OperationAnswer {
  /** JSON Schema of the awaited return type; null: no body. */
  schema: object | null;
  /** Statuses the method sets itself (`reply.status(200)`), when it does. */
  statuses?: number[];
  /** Writes the reply itself (`@Res()`: files, streams); its body is not described. */
  raw?: boolean;
}

type Operation = Record<string, unknown> & {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses?: Record<string, Record<string, unknown>>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Builds the service's OpenAPI 3.1 document: @nestjs/swagger from the registered controllers,
 * with the plugin metadata (request bodies, query and path parameters, summaries), each
 * route's security from its guards and decorators, its success answer's schema from the
 * method's return type, each error status it can answer with the codes it can answer there
 * (`operationErrors`, `addErrorCodes`: docs/api-documentation.md § Error codes per operation)
 * in the service's error body, and an example for every JSON body (`addExamples`).
 */
export async function buildOpenApiDocument(
  app: INestApplication,
  service: string,
  metadata?: OpenApiMetadata,
): Promise<OpenAPIObject> {
  if (metadata) await SwaggerModule.loadPluginMetadata(metadata.default);
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(`Workspace platform: ${service} service`)
      .setVersion('1')
      .setOpenAPIVersion('3.1.0')
      .build(),
  );
  const facts = new Map(
    collectRouteFacts(app, service !== 'analytics').map((f) => [f.operationId, f]),
  );
  const comments = await controllerComments(metadata?.default);
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (operation) {
        describeOperation(
          method,
          operation,
          facts.get(operation.operationId ?? ''),
          metadata,
          comments,
        );
      }
    }
  }
  document.components ??= {};
  const bodyTypes = [...facts.values()].flatMap((f) => (f.bodyType ? [f.bodyType] : []));
  addClassConstraints(document.components.schemas ?? {}, [
    ...new Set([...validatedClasses(), ...bodyTypes]),
  ]);
  document.components.schemas = {
    ...document.components.schemas,
    ...(metadata ? { [metadata.errorBodyName]: metadata.errorBody } : {}),
  };
  const document31 = toOpenApi31(document) as OpenAPIObject;
  closeErrorSchemas(document31 as unknown as Record<string, unknown>);
  addExamples(document31 as unknown as Record<string, unknown>, metadata?.errorBodyName);
  return document31;
}

function describeOperation(
  verb: string,
  operation: Operation,
  facts: RouteFacts | undefined,
  metadata: OpenApiMetadata | undefined,
  comments: Record<string, Record<string, string>> = {},
): void {
  // The summary: the route's own `@ApiOperation({ summary })`, else the JSDoc's first
  // sentence; the description: the whole JSDoc, for readers (`forReaders`).
  const [controllerName, methodName] = (operation.operationId ?? '').split('_');
  const jsdoc = (comments[controllerName]?.[methodName] ?? '').trim();
  const explicit = (operation.summary ?? '').trim();
  const text = jsdoc || explicit;
  operation.summary = explicit && explicit !== jsdoc ? explicit : summaryOf(forReaders(text));
  const description = forReaders(operation.description ?? text);
  operation.description = description || operation.summary;
  operation.security = securityOf(facts);
  for (const parameter of operation.parameters ?? []) {
    const own = facts?.pathSchemas[parameter.name];
    if (parameter.in === 'path' && own) {
      const { description } = (parameter as { schema?: { description?: string } }).schema ?? {};
      (parameter as { schema?: object }).schema = { ...own, ...(description && { description }) };
    }
  }
  if (facts?.queryType) {
    const rules = rulesOf(facts.queryType);
    for (const parameter of operation.parameters ?? []) {
      const schema = (parameter as { schema?: Record<string, unknown> }).schema;
      const own = rules.get(parameter.name);
      if (parameter.in !== 'query' || !schema || !own) continue;
      if (schema['type'] === 'array') {
        // A list type alias (`Role[]`) reaches the plugin as an empty `Object`; the values are
        // strings, sent as one comma list (`ToList`; a repeated parameter is accepted too).
        const items = schema['items'] as Record<string, unknown> | undefined;
        if (!items || items['$ref'] === '#/components/schemas/Object') {
          schema['items'] = { type: 'string' };
        }
        Object.assign(parameter, { style: 'form', explode: false });
      }
      applyRules(schema, own);
      if (isCaseInsensitive(facts.queryType, parameter.name)) anyLetterCase(schema);
      if (isZeroOneBoolean(facts.queryType, parameter.name)) {
        // `ToBoolean` reads `1`/`0` as well as `true`/`false`.
        (parameter as { schema?: object }).schema = {
          oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }],
        };
      }
    }
  }
  const responses = (operation.responses ??= {});
  const [controller, method] = (operation.operationId ?? '').split('_');
  const answer = metadata?.responses[controller]?.[method];
  const success = Object.keys(responses).find((s) => s.startsWith('2')) ?? '200';
  // Statuses the method sets itself; the default success stays unless it sets a 2xx itself.
  const own = answer?.statuses?.map(String) ?? [];
  const statuses = own.some((s) => s.startsWith('2')) ? own : [success, ...own];
  if (answer && !statuses.includes(success)) delete responses[success];
  for (const status of statuses) {
    const own = responses[status]?.description;
    if (typeof own === 'string' && own && answer && !answer.raw && answer.schema !== null) {
      responses[status] = {
        description: own,
        content: { 'application/json': { schema: answer.schema } },
      };
      continue;
    }
    if (status === '304') {
      responses[status] = { description: 'Not modified: `If-None-Match` matches the ETag.' };
    } else if (answer?.raw) {
      responses[status] = {
        description: 'Success; the body is written as the description says (e.g. a file).',
        content: { '*/*': { schema: {} } },
      };
    } else if (answer?.schema === null) {
      responses[status] = { description: 'Done; no body.' };
    } else if (answer) {
      responses[status] = {
        description: 'Success.',
        content: { 'application/json': { schema: answer.schema } },
      };
    }
  }
  if (facts?.conditional) {
    responses['304'] = { description: 'Not modified: `If-None-Match` matches the ETag.' };
  }
  if (!metadata) return;
  // Fastify reads a body on every method but GET and HEAD.
  const hasBody = Boolean(operation.requestBody) || !['get', 'head'].includes(verb);
  const hasPathParameters = (operation.parameters ?? []).some(
    (parameter) => 'in' in parameter && parameter.in === 'path',
  );
  const ownErrors = metadata.errors[controller]?.[method] ?? [];
  for (const [status, errors] of operationErrors(
    ownErrors,
    metadata.frameworkErrors,
    facts,
    hasBody,
    hasPathParameters,
  )) {
    // A route's own `@ApiResponse` text is kept as the meaning.
    const text = responses[status]?.description;
    delete responses[status];
    addErrorCodes(
      responses,
      status,
      metadata.errorBodyName,
      errors,
      typeof text === 'string' && text ? text : undefined,
    );
  }
  // An error status the route declares (`@ApiResponse`) but cannot answer is not documented.
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400 && !response['x-error-codes']) delete responses[status];
  }
}

/** The summary from a method's JSDoc (already `forReaders`): its first sentence. */
function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.;](?=\s|$)/.exec(flat)?.[0] ?? flat;
  return sentence.replace(/[.;:]$/, '');
}

/** OpenAPI 3.0 `nullable: true` (as @nestjs/swagger may write it) → 3.1 type arrays. */
function toOpenApi31(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toOpenApi31);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = toOpenApi31(v);
  if (out.nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    delete out.nullable;
  }
  return out;
}

/**
 * Serves the service's OpenAPI document at `GET /openapi.json` ({@link buildOpenApiDocument},
 * built on first request and then kept: routes never change at run time). Paths carry the
 * global prefix (`/v1/api/...`), as clients call them through the gateway, which merges the
 * services' documents (docs/api-documentation.md).
 */
export function installOpenApiDocument(
  app: NestFastifyApplication,
  service: string,
  metadata?: OpenApiMetadata,
): void {
  let document: Promise<OpenAPIObject> | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get(OPENAPI_DOCUMENT_PATH, async (_request, reply) => {
    document ??= buildOpenApiDocument(app, service, metadata);
    return reply.header('cache-control', 'no-cache').send(await document);
  });
}
