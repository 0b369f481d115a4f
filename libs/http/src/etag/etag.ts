import { createHash } from 'node:crypto';

/**
 * A weak entity tag (RFC 9110 § 8.8.3) of a serialized representation: `W/"<22 base64url
 * characters of its SHA-256>"`. Weak because the tag names the JSON document's content, not its
 * bytes on the wire (compression or key order of another serializer may differ).
 */
export function weakETag(serialized: string): string {
  const digest = createHash('sha256').update(serialized).digest('base64url').slice(0, 22);
  return `W/"${digest}"`;
}

/** `W/"abc"` or `"abc"` → `abc` (the opaque tag), or null when malformed. */
function opaqueTag(tag: string): string | null {
  const match = /^(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/.exec(tag.trim());
  return match ? match[1] : null;
}

/**
 * Whether an `If-None-Match` field value matches `etag` (RFC 9110 § 13.1.2): `*` matches any
 * current representation; otherwise one of the listed entity tags must match by **weak
 * comparison** (§ 8.8.3.2: the opaque tags are equal, whether either is weak or not). Repeated
 * header lines count as one list. Malformed members are ignored.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const current = opaqueTag(etag);
  if (current === null) return false;
  // Entity tags may themselves contain commas, so list members are matched, not split.
  for (const match of value.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (opaqueTag(match[0]) === current) return true;
  }
  return false;
}
