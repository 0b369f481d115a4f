import { ValidationFailedError } from '../errors/validation-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A `timestamptz` as PostgreSQL prints it, e.g. `2026-11-20 08:15:42.123456+00`. */
const PG_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/**
 * A keyset position in a list ordered newest first by (timestamp, UUID id): the next page holds
 * the rows strictly older than it. Used by the audit logs and the webhook delivery log.
 */
export interface KeysetCursor {
  /** The row's timestamp as PostgreSQL prints it (microseconds kept, so no row is skipped). */
  at: string;
  /** The row's UUID. */
  id: string;
}

/** An opaque cursor: base64url of `<at>|<id>`. */
export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

/** @throws ValidationFailedError 400 (parameter `cursor`) when it is not one of ours */
export function decodeCursor(value: string): KeysetCursor {
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const bar = text.lastIndexOf('|');
  const at = text.slice(0, bar);
  const id = text.slice(bar + 1);
  if (bar < 0 || !UUID.test(id) || !PG_TIMESTAMP.test(at)) {
    throw ValidationFailedError.at(
      { parameter: 'cursor' },
      'must be a cursor from a previous page',
    );
  }
  return { at, id };
}
