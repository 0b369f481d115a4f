import { parsePhoneNumberFromString } from 'libphonenumber-js';
import isEmail from 'validator/lib/isEmail.js';

export type Username = { kind: 'email'; email: string } | { kind: 'phone'; phone: string };

/** Lower-cased, trimmed email when syntactically valid (validator.js `isEmail`), else null. */
export function normalizeEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  return email.length <= 254 && isEmail(email) ? email : null;
}

/**
 * E.164 form of a valid phone number (libphonenumber-js), else null.
 * @param countryCode calling code without `+` (e.g. `1`, `44`) when `value` is a national number
 */
export function normalizePhone(value: string, countryCode?: string): string | null {
  const raw = value.trim();
  const input = countryCode ? `+${countryCode.replace(/^\+/, '')}${raw.replace(/^0+/, '')}` : raw;
  const phone = parsePhoneNumberFromString(input);
  return phone?.isValid() ? phone.number : null;
}

/** Recognizes a login username: an email, or a phone number in E.164. */
export function parseUsername(value: string): Username | null {
  if (value.includes('@')) {
    const email = normalizeEmail(value);
    return email ? { kind: 'email', email } : null;
  }
  const phone = normalizePhone(value);
  return phone ? { kind: 'phone', phone } : null;
}

/**
 * The key per-username limits count under: the normalized email or E.164 number, so
 * `Ada@Example.com` and `ada@example.com` share one budget; anything unparseable counts under
 * its trimmed, lower-cased self.
 */
export function usernameKey(value: string): string {
  const parsed = parseUsername(value);
  if (parsed?.kind === 'email') return `email:${parsed.email}`;
  if (parsed?.kind === 'phone') return `phone:${parsed.phone}`;
  return `raw:${value.trim().toLowerCase()}`;
}
