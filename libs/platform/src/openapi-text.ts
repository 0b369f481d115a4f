type Json = Record<string, unknown>;

/**
 * A description as an outside reader of the OpenAPI document needs it: the developer notes of
 * the controllers' JSDoc without what only the repository explains — the leading "`POST /path`
 * (K):" (the path is shown anyway), `{@link X}` markup, and references to the repository's
 * documents (`docs/org.md § ETags`), which a reader of the document cannot open. Whitespace
 * is normalized.
 */
export function forReaders(text: string): string {
  return text
    .replace(/^`[A-Z]+ [^`]*`(?: \([A-Z]+\))?:?\s*/, '')
    .replace(/\{@link ([^}|]+)(?:\|[^}]*)?\}/g, '$1')
    .replace(/[;,]\s*(?:see |per )?docs\/[\w-]+\.md(?: § [^)]*)?(?=\))/g, '')
    .replace(/\s*\((?:see |per )?docs\/[\w-]+\.md(?: § [^)]*)?\)/g, '')
    .replace(/,? ?(?:per |see |as )?docs\/[\w-]+\.md(?: § [^.,;:)]*)?/g, '')
    .replace(/[ \t]*\n[ \t]*(?!\n)/g, ' ')
    .replace(/ {2,}/g, ' ')
    .replace(/\s+([.,;:])/g, '$1')
    .trim();
}

/**
 * The JSDoc of each controller method as the @nestjs/swagger plugin read it
 * (`summary` in its controller metadata), by controller and method name.
 */
export async function controllerComments(
  metadata: (() => Promise<Record<string, unknown>>) | undefined,
): Promise<Record<string, Record<string, string>>> {
  if (!metadata) return {};
  const plugin = (await metadata())['@nestjs/swagger'] as Json | undefined;
  const out: Record<string, Record<string, string>> = {};
  for (const entry of (plugin?.['controllers'] as [unknown, Json][] | undefined) ?? []) {
    for (const [controller, methods] of Object.entries(entry[1] ?? {})) {
      for (const [method, meta] of Object.entries((methods ?? {}) as Record<string, Json>)) {
        if (typeof meta['summary'] === 'string') {
          (out[controller] ??= {})[method] = meta['summary'];
        }
      }
    }
  }
  return out;
}

/** Rewrites every `description` in `document` with {@link forReaders}. Mutates `document`. */
export function descriptionsForReaders(document: unknown): void {
  if (Array.isArray(document)) return document.forEach(descriptionsForReaders);
  if (!document || typeof document !== 'object') return;
  const node = document as Json;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') node[key] = forReaders(value);
    else if (key !== 'example' && key !== 'examples') descriptionsForReaders(value);
  }
}
