import { z } from 'zod';

/**
 * Reusable environment field parsers. Environment values are strings; these coerce and
 * validate them with messages a human can act on.
 */
export const env = {
  port: (fallback: number) =>
    z.coerce
      .number({ message: 'expected an integer 1-65535' })
      .int('expected an integer 1-65535')
      .min(1, 'expected an integer 1-65535')
      .max(65535, 'expected an integer 1-65535')
      .default(fallback),
  /** A port to listen on; 0 takes any free port (tests). */
  listenPort: (fallback: number) =>
    z.coerce
      .number({ message: 'expected an integer 0-65535' })
      .int('expected an integer 0-65535')
      .min(0, 'expected an integer 0-65535')
      .max(65535, 'expected an integer 0-65535')
      .default(fallback),
  int: (fallback: number, min = 0) =>
    z.coerce
      .number({ message: `expected an integer ≥ ${min}` })
      .int(`expected an integer ≥ ${min}`)
      .min(min, `expected an integer ≥ ${min}`)
      .default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  url: (fallback: string, protocols: string[]) =>
    z
      .string()
      .default(fallback)
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol.replace(':', ''));
          } catch {
            return false;
          }
        },
        `expected a ${protocols.join(' or ')} URL`,
      ),
  /** One URL or several, comma separated (replicas of one upstream); at least one. */
  urls: (fallback: string, protocols: string[]) =>
    z
      .string()
      .default(fallback)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .refine(
        (list) =>
          list.length > 0 &&
          list.every((v) => {
            try {
              return protocols.includes(new URL(v).protocol.replace(':', ''));
            } catch {
              return false;
            }
          }),
        `expected ${protocols.join(' or ')} URLs, comma separated`,
      ),
  optionalUrl: (protocols: string[]) =>
    z
      .string()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .refine(
        (v) => {
          if (v === undefined) return true;
          try {
            return protocols.includes(new URL(v).protocol.replace(':', ''));
          } catch {
            return false;
          }
        },
        `expected a ${protocols.join(' or ')} URL`,
      ),
  string: (fallback: string) => z.string().default(fallback),
  list: (fallback: string[] = []) =>
    z
      .string()
      .optional()
      .transform((v) =>
        v === undefined
          ? fallback
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
      ),
  logLevel: () =>
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A PEM block; `\n` escapes (as env files often carry them) become newlines. */
  pem: (label: string) =>
    z
      .string({ message: `expected a PEM ${label}` })
      .transform((v) => v.replace(/\\n/g, '\n'))
      .refine((v) => v.includes('-----BEGIN'), `expected a PEM ${label}`),
};
