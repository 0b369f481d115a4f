// Writes apps/<service>/src/openapi-metadata.ts: what the @nestjs/swagger CLI plugin learns from
// the TypeScript types, class-validator decorators and JSDoc comments of DTOs (`*.dto.ts`,
// `*.query.ts`, `*.response.ts`) and controllers (summaries, return types), in the plugin's
// "readonly" mode (the Nest CLI's PluginMetadataGenerator; `tsc -b` takes no transformers).
// The services load it with `SwaggerModule.loadPluginMetadata` (libs/platform/src/openapi.ts).
// `npm run openapi` runs it; docs/api-documentation.md § How the document is made.
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');
const { ReadonlyVisitor } = require('@nestjs/swagger/dist/plugin');
const { controllerResponseSchemas, schemaOf } = require('./openapi-response-schemas.js');
const {
  controllerErrorCodes,
  errorAnalysis,
  frameworkErrorCodes,
  unique,
} = require('./openapi-error-codes.js');

const root = join(__dirname, '..');
const SERVICES = ['auth', 'org', 'wallet', 'analytics'];
/** The type of the error body each service answers with (file, exported type name). */
const ERROR_BODY = {
  default: ['libs/http/src/errors/json-api-error.filter.ts', 'ErrorDocument'],
  analytics: ['apps/analytics/src/modules/common/langfuse-errors.ts', 'LangfuseErrorBody'],
};

function namedTypeSchema(program, [file, name]) {
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(join(root, file));
  const declaration = sf?.statements.find(
    (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name,
  );
  if (!declaration) throw new Error(`${name} not found in ${file}`);
  return schemaOf(checker.getTypeAtLocation(declaration.name), checker);
}
const OUTPUT = 'openapi-metadata.ts';

/**
 * The error entries (`{status, code, title}`) as the service writes them: analytics answers
 * JSON:API errors (DomainError: guards, pipes) in Langfuse's shape, with the code its filter
 * gives their status (`describeStatus`).
 */
function inServiceShape(service, entries) {
  if (service !== 'analytics') return entries.map(({ jsonApi: _jsonApi, ...entry }) => entry);
  const { describeStatus } = require(
    join(root, 'apps/analytics/src/modules/common/langfuse-errors.ts'),
  );
  return unique(
    entries.map(({ jsonApi, ...entry }) => {
      if (!jsonApi) return entry;
      const { errorName, code } = describeStatus(entry.status);
      return { status: entry.status, code, title: errorName };
    }),
  ).map(({ jsonApi: _jsonApi, ...entry }) => entry);
}

/**
 * The plugin writes `type: () => Object` for a property typed as a union of string literals
 * (e.g. `entity_type: WalletEntityType`); this gives it `type: String` and the literals as
 * `enum`, read from the property's type with the checker.
 */
function withLiteralUnions(program, source, imp, meta) {
  const f = ts.factory;
  const checker = program.getTypeChecker();
  const file = join(source, imp.arguments[0].text.replace(/\.js$/, '.ts'));
  const sf = program.getSourceFile(file);
  const out = {};
  for (const [className, literal] of Object.entries(meta)) {
    const cls = sf?.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
    out[className] = f.createObjectLiteralExpression(
      literal.properties.map((assignment) => {
        const inner = assignment.initializer;
        const typeAssignment = inner.properties.find((p) => p.name.escapedText === 'type');
        const typeOf = typeAssignment?.initializer;
        const isObject =
          typeOf &&
          ts.isArrowFunction(typeOf) &&
          ts.isIdentifier(typeOf.body) &&
          typeOf.body.escapedText === 'Object';
        const member = cls?.members.find(
          (m) => m.name?.escapedText === assignment.name.escapedText,
        );
        if (!isObject || !member) return assignment;
        const schema = schemaOf(checker.getTypeAtLocation(member), checker);
        if (!Array.isArray(schema.enum) || schema.type !== 'string') return assignment;
        return f.createPropertyAssignment(
          assignment.name,
          f.createObjectLiteralExpression([
            ...inner.properties.filter((p) => p !== typeAssignment),
            f.createPropertyAssignment(
              'type',
              f.createArrowFunction(
                undefined,
                undefined,
                [],
                undefined,
                undefined,
                f.createIdentifier('String'),
              ),
            ),
            f.createPropertyAssignment(
              'enum',
              f.createArrayLiteralExpression(schema.enum.map((v) => f.createStringLiteral(v))),
            ),
          ]),
        );
      }),
    );
  }
  return out;
}

function generate(service, program, analysis, framework) {
  const source = join(root, 'apps', service, 'src');
  const visitor = new ReadonlyVisitor({
    pathToSource: source,
    dtoFileNameSuffix: ['.dto.ts', '.query.ts', '.response.ts'],
    controllerFileNameSuffix: ['.controller.ts'],
    classValidatorShim: true,
    introspectComments: true,
    esmCompatible: true,
  });

  const responses = {};
  const errors = {};
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.startsWith(source)) continue;
    visitor.visit(program, sf);
    if (sf.fileName.endsWith('.controller.ts')) {
      Object.assign(responses, controllerResponseSchemas(sf, program.getTypeChecker()));
      for (const [controller, methods] of Object.entries(controllerErrorCodes(sf, analysis))) {
        errors[controller] = Object.fromEntries(
          Object.entries(methods).map(([method, list]) => [method, inServiceShape(service, list)]),
        );
      }
    }
  }
  const { models: plain, controllers: collected } = visitor.collect();
  const models = plain.map(([imp, meta]) => [imp, withLiteralUnions(program, source, imp, meta)]);
  // Only the @Controller classes (a controller file may hold private helper classes).
  const controllers = collected.map(([imp, meta]) => [
    imp,
    Object.fromEntries(Object.entries(meta).filter(([name]) => name in responses)),
  ]);
  const f = ts.factory;
  // Plain objects of nodes (class name → metadata; controllers: class → method → metadata).
  const literal = (value) =>
    typeof value.kind === 'number'
      ? value
      : f.createObjectLiteralExpression(
          Object.entries(value).map(([key, v]) => f.createPropertyAssignment(key, literal(v))),
          true,
        );
  const pairs = (list) =>
    f.createArrayLiteralExpression(
      list.map(([imp, meta]) => f.createArrayLiteralExpression([imp, literal(meta)])),
      true,
    );
  const imports = f.createVariableStatement(
    undefined,
    f.createVariableDeclarationList(
      [
        f.createVariableDeclaration(
          't',
          undefined,
          undefined,
          f.createObjectLiteralExpression(
            Object.entries(visitor.typeImports).map(([path, ref]) =>
              f.createPropertyAssignment(
                f.createComputedPropertyName(f.createStringLiteral(path)),
                f.createIdentifier(ref.startsWith('await') ? ref : `await ${ref}`),
              ),
            ),
            true,
          ),
        ),
      ],
      ts.NodeFlags.Const,
    ),
  );
  const body = f.createReturnStatement(
    f.createObjectLiteralExpression(
      [
        f.createPropertyAssignment(
          f.createStringLiteral('@nestjs/swagger'),
          f.createObjectLiteralExpression(
            [
              f.createPropertyAssignment('models', pairs(models)),
              f.createPropertyAssignment('controllers', pairs(controllers)),
            ],
            true,
          ),
        ),
      ],
      true,
    ),
  );
  const fn = f.createArrowFunction(
    [f.createModifier(ts.SyntaxKind.AsyncKeyword)],
    undefined,
    [],
    undefined,
    undefined,
    f.createBlock([imports, body], true),
  );
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const file = ts.createSourceFile(OUTPUT, '', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const text = printer.printNode(ts.EmitHint.Unspecified, fn, file);
  const header =
    '/* eslint-disable */\n// Generated by scripts/openapi-metadata.js (npm run openapi): do not edit.\n' +
    '// @nestjs/swagger plugin metadata of this service (docs/api-documentation.md).\n';
  const sort = (record) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  const sorted = sort(responses);
  const frameworkInShape = Object.fromEntries(
    Object.entries(framework).map(([when, list]) => [when, inServiceShape(service, list)]),
  );
  writeFileSync(
    join(source, OUTPUT),
    `${header}import type { FrameworkErrors, OperationAnswer, OperationError } from '@wp/platform';\n\nexport default ${text};\n\n` +
      "/** Each controller method's answer, from its return type and body (OperationAnswer). */\n" +
      `export const responses: Record<string, Record<string, OperationAnswer>> = ${JSON.stringify(sorted, null, 2)};\n\n` +
      '/** The errors each controller method can answer (scripts/openapi-error-codes.js). */\n' +
      `export const errors: Record<string, Record<string, OperationError[]>> = ${JSON.stringify(sort(errors), null, 2)};\n\n` +
      '/** The errors of the framework, the global guards and pipes, by when they apply. */\n' +
      `export const frameworkErrors: FrameworkErrors = ${JSON.stringify(frameworkInShape, null, 2)};\n\n` +
      '/** Name (its TypeScript type) and JSON Schema of the error body this service answers with. */\n' +
      `export const errorBodyName = '${(ERROR_BODY[service] ?? ERROR_BODY.default)[1]}';\n` +
      `export const errorBody: object = ${JSON.stringify(namedTypeSchema(program, ERROR_BODY[service] ?? ERROR_BODY.default), null, 2)};\n`,
  );
}

// One program over the whole workspace (tsconfig.json maps `@wp/<lib>` to the libraries'
// sources, so their types resolve without a build).
const program = ReadonlyVisitor.createTsProgram(join(root, 'tsconfig.json'));
const analysis = errorAnalysis(program);
const framework = frameworkErrorCodes(program, analysis);
for (const service of process.argv.slice(2).length ? process.argv.slice(2) : SERVICES) {
  generate(service, program, analysis, framework);
}
for (const warning of analysis.warnings) console.warn(`openapi-error-codes: ${warning}`);
