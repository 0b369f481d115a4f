import tr46 from 'tr46';
import isEmail from 'validator/lib/isEmail.js';
import { foldText, stripInvisible } from './text.js';

/** An e-mail address in the forms the platform keeps of it. */
export interface EmailAddress {
  /** As typed (trimmed): what the account, the invitation and the tokens show. */
  display: string;
  /**
   * The identity: local part folded (NFKC, lower case, NFC; `foldText`), `@`, the domain in
   * IDNA ASCII form (UTS 46, lower case, punycode). Two addresses are the same account, the same
   * invitee and the same rate-limit budget exactly when their keys are equal.
   */
  key: string;
  /** Where mail goes: the local part in NFKC (case kept), `@`, the ASCII domain. */
  mailbox: string;
  /** Local part in NFKC, case kept. */
  local: string;
  /** Domain in IDNA ASCII form (`xn--…` labels for non-ASCII ones). */
  domain: string;
}

/**
 * UTS 46 processing as IDNA2008 registrations need it: nontransitional (`ß` stays `ß`), STD3
 * ASCII rules (letters, digits, hyphens), hyphen, bidi and joiner checks, DNS lengths.
 */
const IDNA = {
  checkBidi: true,
  checkHyphens: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  transitionalProcessing: false,
  verifyDNSLength: true,
} as const;

/** The domain of an e-mail address in IDNA ASCII form, or null when it is not a valid name. */
export function asciiDomain(domain: string): string | null {
  return tr46.toASCII(domain, IDNA);
}

/** The Unicode form of an ASCII (`xn--`) domain, for checks that read its letters. */
export function unicodeDomain(domain: string): string {
  return tr46.toUnicode(domain, IDNA).domain;
}

/**
 * Parses an e-mail address (docs/auth.md § Usernames): trimmed; invisible characters dropped
 * and NFKC applied (so a fullwidth `＠` or `ａ` is the plain character); the domain converted
 * with IDNA (`ＥＸＡＭＰＬＥ.com`, `EXAMPLE.com` and `example.com` are one domain); the result
 * must be a valid address for validator.js `isEmail` (UTF-8 local parts allowed) of at most 254
 * characters.
 * @returns the address's forms, or null when it is not an e-mail address
 */
export function parseEmail(value: string): EmailAddress | null {
  const display = value.trim();
  const plain = stripInvisible(display).normalize('NFKC');
  const at = plain.lastIndexOf('@');
  if (at <= 0 || display.length > 320) return null;
  const local = plain.slice(0, at);
  const domain = asciiDomain(plain.slice(at + 1));
  if (!domain) return null;
  const mailbox = `${local}@${domain}`;
  if (mailbox.length > 254 || !isEmail(mailbox)) return null;
  return { display, key: `${foldText(local)}@${domain}`, mailbox, local, domain };
}

/**
 * The identity key of anything given as an e-mail address, for look-ups: the parsed key when it
 * is an address ({@link parseEmail}), else the whole text folded (`foldText`) if it has an `@`,
 * so a stored address that today's rules would refuse still finds itself.
 * @returns null for text without `@` (it names no e-mail account, and must not match a phone
 *   account's key)
 */
export function emailKey(value: string): string | null {
  const parsed = parseEmail(value);
  if (parsed) return parsed.key;
  const folded = foldText(value.trim());
  return folded.includes('@') ? folded : null;
}

/** Where mail to `address` goes ({@link EmailAddress.mailbox}), or `address` unchanged. */
export function mailboxOf(address: string): string {
  return parseEmail(address)?.mailbox ?? address;
}
