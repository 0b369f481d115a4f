import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { stripInvisible } from './text.js';

/**
 * E.164 form of a valid phone number (libphonenumber-js), else null. Invisible characters are
 * dropped and NFKC applied first, so fullwidth digits and `＋` read as plain ones.
 * @param countryCode calling code without `+` (e.g. `1`, `44`) when `value` is a national number
 */
export function parsePhone(value: string, countryCode?: string): string | null {
  const raw = stripInvisible(value).normalize('NFKC').trim();
  const code = countryCode?.normalize('NFKC').trim().replace(/^\+/, '');
  const input = code ? `+${code}${raw.replace(/^0+/, '')}` : raw;
  const phone = parsePhoneNumberFromString(input);
  return phone?.isValid() ? phone.number : null;
}
