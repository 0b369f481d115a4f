const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * An organization or project id as user settings carry it (docs/api.md § User settings): the
 * 8-4-4-4-12 hexadecimal form stays a string, a numeric value becomes an integer, anything
 * else (invalid or empty) is `undefined`, to be left out of the payload.
 */
export function normaliseSettingsId(value: unknown): string | number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (UUID.test(text)) return text;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  }
  return undefined;
}
