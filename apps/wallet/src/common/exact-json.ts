import { Amount } from './amount.js';

/**
 * `JSON.stringify` that writes {@link Amount}s as their exact number literal (`1234567890.12345678`
 * stays exactly that, where a double would round it). Everything else is written as
 * `JSON.stringify` writes it: `toJSON` honoured (dates), `undefined` members left out.
 * Installed as the wallet service's Fastify reply serializer.
 */
export function exactJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  if (value instanceof Amount) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  const parts: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const text = write(member);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
