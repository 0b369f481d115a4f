import { classesWithSchemaRules, isCaseInsensitive, schemaRules, validatorSchema } from '@wp/http';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata.js';

type Json = Record<string, unknown>;
type Constructor = abstract new (...args: never[]) => object;

const ISO_INSTANT =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?)?$';

/**
 * JSON Schema keywords of class-validator's own validators, by their `ValidateBy` name. Only
 * rules JSON Schema can state exactly; the others (a phone number, a date in the future)
 * stay in the field's description.
 */
const BUILT_IN: Record<string, (c: unknown[], type: string | undefined) => Json | undefined> = {
  equals: (c) => ({ const: c[0] }),
  isIn: (c) => ({ enum: c[0] as unknown[] }),
  isEnum: (c) => ({ enum: enumValues(c[0]) }),
  matches: (c) => {
    const pattern =
      c[0] instanceof RegExp
        ? c[0]
        : new RegExp(String(c[0]), typeof c[1] === 'string' ? c[1] : '');
    return pattern.flags.includes('i') ? undefined : { pattern: pattern.source };
  },
  min: (c) => ({ minimum: c[0] }),
  max: (c) => ({ maximum: c[0] }),
  isPositive: () => ({ exclusiveMinimum: 0 }),
  isNegative: () => ({ exclusiveMaximum: 0 }),
  minLength: (c) => ({ minLength: c[0] }),
  maxLength: (c) => ({ maxLength: c[0] }),
  isLength: (c) => ({ minLength: c[0], ...(c[1] === undefined ? {} : { maxLength: c[1] }) }),
  isNotEmpty: (_c, type) => (type === 'string' ? { minLength: 1 } : undefined),
  isInt: () => ({ type: 'integer' }),
  isEmail: () => ({ format: 'email' }),
  isUUID: () => ({ format: 'uuid' }),
  arrayMinSize: (c) => ({ minItems: c[0] }),
  arrayMaxSize: (c) => ({ maxItems: c[0] }),
  arrayNotEmpty: () => ({ minItems: 1 }),
  arrayUnique: () => ({ uniqueItems: true }),
  // @wp/http's IsIsoInstant: a calendar date or a date-time (parseIsoInstant's forms).
  isIsoInstant: () => ({ pattern: ISO_INSTANT }),
  // @wp/identity's IsEmailAddress: an `@` between a local part and a domain. `format: email`
  // would refuse the fullwidth and Unicode spellings it accepts (docs/auth.md § Usernames).
  // Surrounding spaces are allowed: the email fields are trimmed (`@Trim`) first.
  isEmailAddress: () => ({ pattern: '^\\s*[^@\\s]+@[^@\\s]+\\s*$' }),
};

function enumValues(entity: unknown): unknown[] {
  if (Array.isArray(entity)) return entity;
  const record = (entity ?? {}) as Record<string, unknown>;
  return Object.keys(record)
    .filter((key) => !/^\d+$/.test(key))
    .map((key) => record[key]);
}

/** The JSON Schema keywords of one validation rule, or undefined when it has none. */
function keywordsOf(rule: ValidationMetadata, type: string | undefined): Json | undefined {
  const name = rule.name ?? rule.type;
  const constraints = (rule.constraints ?? []) as unknown[];
  const own = validatorSchema(name, constraints) as Json | undefined;
  return own ?? BUILT_IN[name]?.(constraints, type);
}

/** `string` of `"string"`, `["string", "null"]`, or of an array's items. */
function baseType(schema: Json): string | undefined {
  const type = schema['type'];
  if (Array.isArray(type)) return (type as string[]).find((t) => t !== 'null');
  return typeof type === 'string' ? type : undefined;
}

/**
 * Adds to `schema` (a property, or a query parameter's schema) what the class-validator rules
 * of that property enforce and the schema does not state yet: `const` (`@Equals`), `enum`
 * (`@IsIn`, `@IsEnum`), `pattern` (`@Matches`, project validators), bounds, `integer`. Keeps
 * what the schema already says; a nullable schema keeps `null` allowed. Rules with `each`
 * apply to the items. Mutates `schema`.
 */
export function applyRules(schema: Json, rules: ValidationMetadata[]): void {
  if (typeof schema['$ref'] === 'string' || schema['allOf'] || schema['oneOf']) return;
  const nullable = Array.isArray(schema['type']) && (schema['type'] as string[]).includes('null');
  for (const rule of rules) {
    const items = schema['items'] as Json | undefined;
    const target = rule.each && items && typeof items['$ref'] !== 'string' ? items : schema;
    if (rule.each && target === schema && baseType(schema) === 'array') continue;
    const keywords = keywordsOf(rule, baseType(target));
    if (!keywords) continue;
    for (const [key, value] of Object.entries(keywords)) {
      if (key === 'type') {
        if (baseType(target) === 'number' || target['type'] === undefined) {
          target['type'] = nullable && target === schema ? [value, 'null'] : value;
        }
        continue;
      }
      if (target[key] !== undefined) continue;
      if (key === 'const' && nullable && target === schema) target['enum'] = [value, null];
      else if (key === 'enum' && nullable && target === schema) {
        target['enum'] = [...(value as unknown[]), null];
      } else target[key] = value;
    }
    if (target['const'] !== undefined && target['enum'] !== undefined) delete target['enum'];
  }
}

/** The class-validator rules of each property of `target` (inherited ones included). */
export function rulesOf(target: Constructor): Map<string, ValidationMetadata[]> {
  const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of rules) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  return byProperty;
}

/**
 * Completes the request schemas of `components.schemas` named like a DTO class in
 * `classes` with the class-validator rules of that class ({@link applyRules}): the document
 * then refuses what validation refuses, from the same decorators. Mutates `schemas`.
 */
export function addClassConstraints(
  schemas: Record<string, unknown>,
  classes: Constructor[],
): void {
  for (const target of classes) {
    const schema = schemas[target.name] as Json | undefined;
    const properties = schema?.['properties'] as Record<string, Json> | undefined;
    if (!schema || !properties) continue;
    const rules = schemaRules(target);
    if (rules.length === 1 && !schema['allOf']) Object.assign(schema, rules[0]);
    else if (rules.length > 0) schema['allOf'] = [...((schema['allOf'] as Json[]) ?? []), ...rules];
    for (const [property, rules] of rulesOf(target)) {
      if (!properties[property]) continue;
      applyRules(properties[property], rules);
      if (isCaseInsensitive(target, property)) anyLetterCase(properties[property]);
    }
  }
}

/**
 * Every class class-validator holds rules for, except names two classes share (their schemas
 * could not be told apart). Reads the metadata storage's map of targets, which its public API
 * does not list.
 */
export function validatedClasses(): Constructor[] {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas?: Map<unknown, unknown>;
  };
  const targets = [
    ...new Set([...(storage.validationMetadatas?.keys() ?? []), ...classesWithSchemaRules()]),
  ].filter((t): t is Constructor => typeof t === 'function');
  const count = new Map<string, number>();
  for (const t of targets) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  return targets.filter((t) => count.get(t.name) === 1);
}

/**
 * A case-folded field (its transform trims and upper- or lower-cases before `@IsIn` checks):
 * its string `enum` (of the schema or of its items) becomes the `pattern` the server really
 * accepts — each value in any letter case, surrounding spaces allowed — and the values stay
 * as `examples`, in the case the API answers with.
 */
export function anyLetterCase(schema: Json): void {
  const target = (schema['type'] === 'array' ? schema['items'] : schema) as Json | undefined;
  const values = target?.['enum'] as unknown[] | undefined;
  if (!target || !Array.isArray(values) || !values.every((v) => typeof v === 'string')) return;
  const anyCase = (value: string) =>
    [...value]
      .map((c) =>
        c.toLowerCase() !== c.toUpperCase()
          ? `[${c.toLowerCase()}${c.toUpperCase()}]`
          : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
  delete target['enum'];
  target['pattern'] = `^\\s*(?:${values.map(anyCase).join('|')})\\s*$`;
  target['examples'] = values;
}
