import { Transform, type TransformCallback } from 'node:stream';
import { ValidationFailedError } from '../errors/validation-error.js';

/**
 * Nesting limit of JSON request bodies (docs/decisions.md § Wire format, "Nesting depth"):
 * `HTTP_MAX_JSON_DEPTH`, default 64 levels of objects and arrays. A body nested deeper made
 * class-transformer, which walks bodies recursively, overflow the stack (a 500); it is now
 * refused with 400 `VALIDATION_FAILED` before anything walks it. The check reads the raw text
 * once, byte by byte, without parsing: the gateway runs it on bodies it streams through.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The 400 of a body nested deeper than `limit` (its `source.pointer` is the whole body). */
export function jsonTooDeepError(limit: number): ValidationFailedError {
  return ValidationFailedError.at(
    { pointer: '' },
    `The JSON body is nested deeper than ${limit} levels of objects and arrays.`,
  );
}

/**
 * Counts the nesting of JSON text fed in pieces (chunks of a stream, or one whole string):
 * brackets outside strings open and close a level; string contents, escapes included, are
 * skipped. Malformed JSON is not its business (the parser refuses it); it only answers whether
 * some point of the text went deeper than the limit. UTF-8 bytes of non-ASCII characters are
 * never one of the ASCII bytes it looks for, so byte chunks may split characters anywhere.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(readonly limit: number) {}

  /** Feeds the next piece; false once the text has gone deeper than the limit. */
  feed(chunk: Uint8Array | string): boolean {
    const text = typeof chunk === 'string';
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      const c = text ? chunk.charCodeAt(i) : chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++this.depth > this.limit) return false;
      } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && this.depth > 0) {
        this.depth--;
      }
    }
    return true;
  }
}

/** Whether JSON text nests deeper than `limit` levels. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  return !new JsonDepthScanner(limit).feed(text);
}

/**
 * A pass-through stream that fails with {@link jsonTooDeepError} as soon as the bytes through
 * it nest deeper than `limit`; the bytes themselves are not changed, copied or kept.
 */
export class JsonDepthLimit extends Transform {
  /** The class of the error the stream fails with past its limit. */
  static readonly Refusal = ValidationFailedError;
  private readonly scanner: JsonDepthScanner;

  constructor(limit: number) {
    super();
    this.scanner = new JsonDepthScanner(limit);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.scanner.feed(chunk)) callback(null, chunk);
    else callback(jsonTooDeepError(this.scanner.limit));
  }
}
