/**
 * What a project validator (`ValidateBy({ name, … })`) accepts, as JSON Schema keywords, so the
 * OpenAPI document states the same rule the server enforces (docs/api-documentation.md § How
 * the document is made, "Constraints"). A function receives the validator's `constraints`.
 * Registered next to the validator; read by @wp/platform when it builds the document.
 */
export type ValidatorSchema = Record<string, unknown> | ((constraints: unknown[]) => object);

const SCHEMAS = new Map<string, ValidatorSchema>();

/** Declares the JSON Schema of the validator named `name` (its `ValidateBy` name). */
export function describeValidator(name: string, schema: ValidatorSchema): void {
  SCHEMAS.set(name, schema);
}

/** The JSON Schema keywords of a registered validator, or undefined. */
export function validatorSchema(name: string, constraints: unknown[]): object | undefined {
  const schema = SCHEMAS.get(name);
  return typeof schema === 'function' ? schema(constraints) : schema;
}

const SCHEMA_RULES = Symbol.for('wp:schemaRules');
const RULED = new Set<object>();

/**
 * A rule over several fields of a request DTO that its handler or service enforces (with a 400)
 * rather than a property decorator — "exactly one of `code` or `recovery_code`" — stated as
 * JSON Schema keywords (`oneOf`, `anyOf` of `required`, …) for the OpenAPI document. Written on
 * the class, next to its fields; subclasses inherit it. Several rules combine with `allOf`.
 */
export function SchemaRule(schema: Record<string, unknown>): ClassDecorator {
  return (target) => {
    // The class's own list when it has one, else its parent's rules (inherited) to extend.
    const current = schemaRules(target);
    Reflect.defineMetadata(SCHEMA_RULES, [...current, schema], target);
    RULED.add(target);
  };
}

/** The {@link SchemaRule}s of a DTO class, its parents' included. */
export function schemaRules(target: object): Record<string, unknown>[] {
  return (Reflect.getMetadata(SCHEMA_RULES, target) as Record<string, unknown>[] | undefined) ?? [];
}

/** Every class with a {@link SchemaRule} of its own. */
export function classesWithSchemaRules(): object[] {
  return [...RULED];
}

const CASE_INSENSITIVE = Symbol.for('wp:caseInsensitive');

/**
 * Marks a property whose value a transform upper- or lower-cases before validation, so the
 * OpenAPI document lists its `enum` values in both cases (the server accepts either).
 */
export function CaseInsensitive(): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(CASE_INSENSITIVE, true, target, property);
}

/** Whether {@link CaseInsensitive} marks `property` of `target` (a class). */
export function isCaseInsensitive(target: object, property: string): boolean {
  const prototype = (target as { prototype?: object }).prototype ?? target;
  return Reflect.getMetadata(CASE_INSENSITIVE, prototype, property) === true;
}

const ZERO_ONE_BOOLEAN = Symbol.for('wp:zeroOneBoolean');

/**
 * Marks a query property that reads `1`/`0` as well as `true`/`false` (`ToBoolean`), so the
 * OpenAPI document accepts both spellings.
 */
export function ZeroOneBoolean(): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(ZERO_ONE_BOOLEAN, true, target, property);
}

/** Whether {@link ZeroOneBoolean} marks `property` of `target` (a class). */
export function isZeroOneBoolean(target: object, property: string): boolean {
  const prototype = (target as { prototype?: object }).prototype ?? target;
  return Reflect.getMetadata(ZERO_ONE_BOOLEAN, prototype, property) === true;
}
