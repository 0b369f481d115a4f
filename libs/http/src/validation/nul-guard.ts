/**
 * PostgreSQL `text` and `jsonb` cannot hold U+0000, so a NUL anywhere in a request reached the
 * database as an error (a 500). Requests are refused with a 400 before any handler runs
 * (installed by `configureHttpApp`): JSON bodies by the JSON parser, query and path parameters
 * by a `preValidation` hook. docs/decisions.md § Wire format.
 */
export const NUL_DETAIL = 'must not contain the NUL character (U+0000)';

/**
 * A JSON string may escape half of a surrogate pair alone (`"\uD800"`): not Unicode text. It
 * broke whatever encoded it (`encodeURIComponent` throws `URIError`: a 500 on the password reset
 * routes, found by the fuzz test); such a body is refused like a NUL (docs/decisions.md § Wire
 * format).
 */
export const UNPAIRED_SURROGATE_DETAIL =
  'must be well-formed Unicode text (an unpaired surrogate escape such as \\uD800 is not)';

/** Whether JSON text escapes a surrogate (`\uD800`–`\uDFFF`), paired or not: worth a closer look. */
export function mayHoldLoneSurrogate(text: string): boolean {
  return /\\u[dD][89a-fA-F]/.test(text);
}

/** The RFC 6901 pointer of the first string (or key) with an unpaired surrogate, or null. */
export function findLoneSurrogate(value: unknown): string | null {
  return findString(value, (text) => LONE_SURROGATE.test(text));
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The RFC 6901 pointer of the first string (or object key) holding U+0000 in a parsed JSON
 * value, or null. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findNul(value: unknown): string | null {
  return findString(value, (text) => text.includes('\u0000'));
}

/** The pointer of the first string or key of a parsed JSON value that `bad` flags, or null. */
function findString(value: unknown, bad: (text: string) => boolean): string | null {
  const stack: { value: unknown; pointer: string }[] = [{ value, pointer: '' }];
  while (stack.length > 0) {
    const { value: current, pointer } = stack.pop()!;
    if (typeof current === 'string') {
      if (bad(current)) return pointer;
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, pointer: `${pointer}/${i}` }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const token = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (bad(key)) return token;
        stack.push({ value: item, pointer: token });
      }
    }
  }
  return null;
}

/** The name of the first query or path parameter (name or value) holding U+0000, or null. */
export function findNulParameter(
  ...sources: (Record<string, unknown> | undefined | null)[]
): string | null {
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source)) {
      if (name.includes('\u0000') || findNul(value) !== null) return name;
    }
  }
  return null;
}
