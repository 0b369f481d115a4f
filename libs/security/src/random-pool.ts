import { randomBytes } from 'node:crypto';

/** Bytes drawn from the CSPRNG at a time (as Node's `randomUUID` keeps a cache of 128 UUIDs). */
const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `size` bytes from Node's CSPRNG (`crypto.randomBytes`), cut from a buffer filled 4 KiB at a
 * time: one `randomBytes(4096)` serves ~90 refresh rotations (32-byte token + 12-byte IV), where
 * a call per value cost ~2 µs of CPU each (Node 24; docs/auth.md § Performance). Each byte is
 * handed out once; a used-up buffer is replaced by a new one, never refilled, so a returned view
 * never changes. Requests larger than a quarter of the pool are served directly.
 * @param size number of bytes, ≥ 0
 * @returns a view of `size` fresh bytes (treat as read-only; copy before keeping it long)
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES / 4) return randomBytes(size);
  if (offset + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + size);
  offset += size;
  return bytes;
}
