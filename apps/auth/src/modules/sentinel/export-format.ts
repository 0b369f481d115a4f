import { csvRows } from '@wp/http';
import { ENTRY_FIELDS, type ActivityLogEntry } from './activity.service.js';

export type ExportFormat = 'json' | 'csv' | 'jsonl';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const CHUNK_CHARS = 64 * 1024;

/**
 * Turns a stream of entries into the chunks (about 64 KiB each) of an export file: `json` one
 * array of entries, `jsonl` one entry per line, `csv` a header row of {@link ENTRY_FIELDS} then
 * one row per entry (CRLF line ends, RFC 4180 quoting).
 */
export async function* exportChunks(
  entries: AsyncIterable<ActivityLogEntry> | Iterable<ActivityLogEntry>,
  format: ExportFormat,
): AsyncGenerator<string> {
  let pending = '';
  for await (const piece of exportPieces(entries, format)) {
    pending += piece;
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}

async function* exportPieces(
  entries: AsyncIterable<ActivityLogEntry> | Iterable<ActivityLogEntry>,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield* csvRows(entries, ENTRY_FIELDS);
    return;
  }
  if (format === 'jsonl') {
    for await (const e of entries) yield `${JSON.stringify(e)}\n`;
    return;
  }
  yield '[';
  let first = true;
  for await (const e of entries) {
    yield `${first ? '' : ','}\n${JSON.stringify(e)}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
