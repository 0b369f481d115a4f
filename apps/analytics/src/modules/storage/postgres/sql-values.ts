import { createHash } from 'node:crypto';
import type { EntityKey } from '../analytics-store.js';

/** PostgreSQL text cannot hold NUL: it is dropped from every string written or looked up. */
export function clean(value: string): string {
  return value.includes('\u0000') ? value.split('\u0000').join('') : value;
}

/** A double-quoted SQL identifier. */
export function quote(column: string): string {
  return `"${column}"`;
}

/** `(project, id)` keys as the two arrays of an `unnest($1::int[], $2::text[])`. */
export function keyArrays(keys: EntityKey[]): [number[], string[]] {
  return [keys.map((k) => k.projectId), keys.map((k) => clean(k.id))];
}

/** A 64-bit advisory lock id for one entity. */
export function lockId(kind: string, key: EntityKey): string {
  const digest = createHash('sha1').update(`${kind}:${key.projectId}:${key.id}`).digest();
  return digest.readBigInt64BE(0).toString();
}
