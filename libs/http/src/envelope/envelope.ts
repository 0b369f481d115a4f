/**
 * JSON:API-style envelopes used by organization, project, member and invitation payloads
 * (docs/api.md § Payload conventions): `{data, included?, meta?}` with resources
 * `{type, id, attributes, relationships?, meta?}`. Ids are always strings in envelopes.
 */
export interface Resource<A extends object = Record<string, unknown>> {
  type: string;
  id: string;
  attributes: A;
  relationships?: Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>;
  meta?: Record<string, unknown>;
}

export interface ResourceIdentifier {
  type: string;
  id: string;
}

export interface Document<D> {
  data: D;
  included?: Resource[];
  meta?: Record<string, unknown>;
}

export function resource<A extends object>(
  type: string,
  id: string | number,
  attributes: A,
  extra: Pick<Resource<A>, 'relationships' | 'meta'> = {},
): Resource<A> {
  return { type, id: String(id), attributes, ...extra };
}

export function document<D>(
  data: D,
  extra: { included?: Resource[]; meta?: Record<string, unknown> } = {},
): Document<D> {
  const doc: Document<D> = { data };
  if (extra.included !== undefined) doc.included = extra.included;
  if (extra.meta !== undefined) doc.meta = extra.meta;
  return doc;
}
