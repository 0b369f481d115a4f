// JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12) of what controller methods return, read from
// their declared TypeScript return types with the compiler's type checker: the interfaces the
// serializers produce (e.g. WalletRecord) are the single source, no hand-written copy. Objects
// are closed (`additionalProperties: false`) so an undocumented field fails the contract test.
// Used by scripts/openapi-metadata.js; docs/api-documentation.md § How the document is made.
'use strict';
const ts = require('typescript');

const MAX_DEPTH = 12;

/** Schema of `type` as JSON.stringify would write it (toJSON honoured, undefined dropped). */
function schemaOf(type, checker, depth = 0) {
  if (depth > MAX_DEPTH) return {};
  const flags = type.flags;
  if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
  if (flags & ts.TypeFlags.Null) return { type: 'null' };
  if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', const: type.value };
  if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', const: type.value };
  if (flags & ts.TypeFlags.BooleanLiteral) {
    return { type: 'boolean', const: checker.typeToString(type) === 'true' };
  }
  if (flags & ts.TypeFlags.StringLike) return { type: 'string' };
  if (flags & ts.TypeFlags.NumberLike) return { type: 'number' };
  if (flags & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
  if (flags & ts.TypeFlags.Union) return unionSchema(type, checker, depth);
  if (flags & ts.TypeFlags.Intersection) {
    return closedMerge(type.types.map((t) => schemaOf(t, checker, depth + 1)));
  }
  const symbol = type.getSymbol();
  if (symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
  const toJSON = type.getProperty('toJSON');
  if (toJSON) {
    const fn = checker.getTypeOfSymbol(toJSON);
    const signature = fn.getCallSignatures()[0];
    if (signature) return schemaOf(signature.getReturnType(), checker, depth + 1);
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [item] = checker.getTypeArguments(type);
    return { type: 'array', items: item ? schemaOf(item, checker, depth + 1) : {} };
  }
  if (flags & ts.TypeFlags.Object) return objectSchema(type, checker, depth);
  return {};
}

function unionSchema(type, checker, depth) {
  const members = type.types.filter(
    (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
  );
  if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) {
    return members.length === 2 ? { type: 'boolean' } : schemaOf(members[0], checker, depth);
  }
  const literals = members.filter(
    (t) => t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral),
  );
  const rest = members.filter((t) => !literals.includes(t));
  const schemas = rest
    .filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral))
    .map((t) => schemaOf(t, checker, depth + 1));
  if (rest.some((t) => t.flags & ts.TypeFlags.BooleanLiteral)) schemas.push({ type: 'boolean' });
  if (literals.length > 0) {
    const values = literals.map((t) => t.value);
    schemas.unshift({ type: typeof values[0] === 'number' ? 'number' : 'string', enum: values });
  }
  if (schemas.length === 1) return schemas[0];
  const nullable = schemas.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
  if (nullable >= 0 && schemas.length === 2) {
    const other = schemas[1 - nullable];
    if (typeof other.type === 'string' && !other.const) {
      return {
        ...other,
        type: [other.type, 'null'],
        ...(other.enum ? { enum: [...other.enum, null] } : {}),
      };
    }
  }
  return { anyOf: schemas };
}

function objectSchema(type, checker, depth) {
  const properties = {};
  const required = [];
  for (const property of checker.getPropertiesOfType(type)) {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const propertyType = declaration
      ? checker.getTypeOfSymbolAtLocation(property, declaration)
      : checker.getTypeOfSymbol(property);
    if (propertyType.getCallSignatures().length > 0) continue;
    if (
      declaration &&
      ts.getCombinedModifierFlags(declaration) &
        (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)
    ) {
      continue;
    }
    properties[property.getName()] = schemaOf(propertyType, checker, depth + 1);
    const optional = property.flags & ts.SymbolFlags.Optional;
    const maybeUndefined =
      propertyType.flags & ts.TypeFlags.Union &&
      propertyType.types.some((t) => t.flags & ts.TypeFlags.Undefined);
    if (!optional && !maybeUndefined) required.push(property.getName());
  }
  const index = checker.getIndexInfosOfType(type)[0];
  const schema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = index ? schemaOf(index.type, checker, depth + 1) : false;
  if (Object.keys(properties).length === 0 && !index) schema.additionalProperties = true;
  return schema;
}

function closedMerge(schemas) {
  const merged = { type: 'object', properties: {}, required: [], additionalProperties: false };
  for (const s of schemas) {
    Object.assign(merged.properties, s.properties ?? {});
    merged.required.push(...(s.required ?? []));
    if (s.additionalProperties && s.additionalProperties !== false) {
      merged.additionalProperties = s.additionalProperties;
    }
  }
  return merged;
}

/**
 * `{ControllerClass: {method: {schema, statuses?, raw?}}}` for every controller in `sourceFile`:
 * the schema of the awaited return type (`null` when the method returns nothing, e.g. 204), the
 * statuses it sets itself (`reply.status(201)`), and `raw` when it writes the reply itself.
 */
function isRawReply(decorator) {
  const call = decorator.expression;
  if (!ts.isCallExpression(call) || call.expression.getText() !== 'Res') return false;
  const [options] = call.arguments;
  return !options || !/passthrough:\s*true/.test(options.getText());
}

function controllerResponseSchemas(sourceFile, checker) {
  const result = {};
  const visit = (node) => {
    const isController =
      ts.isClassDeclaration(node) &&
      ts
        .getDecorators(node)
        ?.some(
          (d) =>
            ts.isCallExpression(d.expression) && d.expression.expression.getText() === 'Controller',
        );
    if (isController && node.name) {
      const methods = {};
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !member.name || !ts.isIdentifier(member.name))
          continue;
        const signature = checker.getSignatureFromDeclaration(member);
        if (!signature) continue;
        let returned = signature.getReturnType();
        returned = checker.getAwaitedType(returned) ?? returned;
        const empty = returned.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined);
        const answer = { schema: empty ? null : schemaOf(returned, checker) };
        // `@Res()` without passthrough: the method writes the reply itself (files, streams).
        if (member.parameters.some((p) => ts.getDecorators(p)?.some(isRawReply))) answer.raw = true;
        const statuses = new Set();
        const scan = (n) => {
          if (
            ts.isCallExpression(n) &&
            ts.isPropertyAccessExpression(n.expression) &&
            n.expression.name.text === 'status' &&
            n.arguments.length === 1 &&
            ts.isNumericLiteral(n.arguments[0])
          ) {
            statuses.add(Number(n.arguments[0].text));
          }
          ts.forEachChild(n, scan);
        };
        if (member.body) scan(member.body);
        if (statuses.size > 0) answer.statuses = [...statuses].sort();
        methods[member.name.text] = answer;
      }
      result[node.name.text] = methods;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return result;
}

module.exports = { controllerResponseSchemas, schemaOf };
