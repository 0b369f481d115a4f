import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** A value one CSV cell may hold; objects are written as their JSON text. */
export type CsvValue = string | number | boolean | null | undefined | Record<string, unknown>;

/**
 * Streams the rows of a CSV file (RFC 4180) written by `csv-stringify`: a header row of
 * `columns`, then one row per record in that column order, every row CRLF-ended. A field is
 * quoted only when it holds a comma, a double quote, CR or LF; quotes inside are doubled.
 * `null`/`undefined` give an empty field, booleans `true`/`false`, objects their JSON text.
 * The header row is written also when there are no records. Errors of `records` end the
 * stream with that error; stopping iteration early stops reading `records`.
 *
 * @param records the rows, read one at a time (backpressure from the consumer).
 * @param columns the keys written, in order; also the header names.
 * @returns chunks of CSV text (one or more rows each).
 */
export async function* csvRows<K extends string>(
  records: AsyncIterable<Partial<Record<K, CsvValue>>> | Iterable<Partial<Record<K, CsvValue>>>,
  columns: readonly K[],
): AsyncGenerator<string> {
  const source = Readable.from(records);
  const stringifier = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    // The library quotes a field holding the whole record delimiter (CRLF); RFC 4180 and the
    // former output also quote a lone CR or LF.
    quoted_match: /[\r\n]/,
    cast: {
      boolean: (value) => String(value),
      object: (value) => JSON.stringify(value),
    },
  });
  source.on('error', (error) => stringifier.destroy(error));
  source.pipe(stringifier);
  try {
    for await (const chunk of stringifier) yield String(chunk);
  } finally {
    source.destroy();
  }
}
