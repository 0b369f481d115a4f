/** The requests the fuzz tests send (docs/api-documentation.md § Fuzzing) and how their bodies change. */
/** A request as the fuzzer sends it through the gateway. */
export interface FuzzRequest {
  kind: 'valid' | 'mutated' | 'garbage';
  /** What was changed, for the failure report. */
  mutation?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** A JSON value, or raw text to send as it is. */
  body?: { json: unknown } | { raw: string };
}

/** Where a value sits in a JSON body: keys and array indexes. */
export type Path = (string | number)[];

/** Sets (or, with `remove`, deletes) the value at `path` of a JSON value; returns a copy. */
export function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const container = (
    Array.isArray(value)
      ? [...(value as unknown[])]
      : value !== null && typeof value === 'object'
        ? { ...(value as Record<string, unknown>) }
        : typeof head === 'number'
          ? []
          : {}
  ) as Record<string | number, unknown>;
  if (rest.length === 0 && remove) delete container[head];
  else container[head] = setAt(container[head], rest, replacement, remove);
  return container;
}
