import { ValidationFailedError } from '@wp/http';

/**
 * docs/architecture.md § Request bodies: where the contract lists a field beside
 * `data.attributes.*` without that prefix (project `add_user`: `role`, `organization_role`,
 * `project_only`; project invitations: `projectRole`, `orgRole`, `projectOnly`; member role
 * changes: `role`), it is accepted both at the top level and inside `data.attributes`.
 * `data.attributes` wins when both are sent.
 */
export function eitherForm<T>(attributes: T | undefined, topLevel: T | undefined): T | undefined {
  return attributes !== undefined ? attributes : topLevel;
}

/**
 * The JSON Schema of {@link requireEitherForm}'s rule for the OpenAPI document (`@SchemaRule`
 * of @wp/http on the body DTO): `name` at the top level or in `data.attributes`.
 */
export function eitherFormRequired(name: string): Record<string, unknown> {
  return {
    anyOf: [
      { required: [name], properties: { [name]: {} } },
      {
        required: ['data'],
        properties: {
          data: {
            required: ['attributes'],
            properties: { attributes: { required: [name], properties: { [name]: {} } } },
          },
        },
      },
    ],
  };
}

/** {@link eitherForm} for a required field: 400 pointing at the top-level name when absent. */
export function requireEitherForm<T>(
  attributes: T | undefined,
  topLevel: T | undefined,
  name: string,
): T {
  const value = eitherForm(attributes, topLevel);
  if (value === undefined) {
    throw ValidationFailedError.at(
      { pointer: `/${name}` },
      `${name} is required (at the top level or in data.attributes)`,
    );
  }
  return value;
}
