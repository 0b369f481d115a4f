import { parseEmail, emailKey, type EmailAddress } from './email.js';
import { parsePhone } from './phone.js';
import { foldText } from './text.js';

/** A login username: an e-mail address, or a phone number (E.164). */
export type Username =
  ({ kind: 'email' } & EmailAddress) | { kind: 'phone'; display: string; key: string };

/**
 * Recognizes a username (docs/auth.md § Usernames): an e-mail address when it has an `@`
 * (fullwidth ones too), else a phone number, whose display and key are both its E.164 form.
 * @returns null when it is neither
 */
export function parseUsername(value: string): Username | null {
  if (foldText(value).includes('@')) {
    const email = parseEmail(value);
    return email ? { kind: 'email', ...email } : null;
  }
  const phone = parsePhone(value);
  return phone ? { kind: 'phone', display: phone, key: phone } : null;
}

/**
 * The identity key of a username for look-ups (`app_user.username_key`): the e-mail key
 * ({@link emailKey}) or the E.164 number; anything else folded, so it matches nothing real.
 */
export function usernameLookupKey(value: string): string {
  return emailKey(value) ?? parsePhone(value) ?? foldText(value.trim());
}

/**
 * The key per-username limits count under: `email:` + the e-mail key, `phone:` + the E.164
 * number, or `raw:` + the folded text, so every spelling of one account — case, width,
 * invisible characters, Unicode normalization, IDNA — shares one budget.
 */
export function usernameKey(value: string): string {
  const email = emailKey(value);
  if (email !== null) return `email:${email}`;
  const phone = parsePhone(value);
  return phone ? `phone:${phone}` : `raw:${foldText(value.trim())}`;
}
