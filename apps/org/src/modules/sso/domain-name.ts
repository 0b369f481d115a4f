import { domainToASCII } from 'node:url';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The DNS name that carries a domain's verification record. */
export const verificationRecordName = (domain: string): string => `_wp-verification.${domain}`;

/** The TXT value that proves a verification token. */
export const verificationRecordValue = (token: string): string => `wp-verification=${token}`;

/**
 * An e-mail domain as stored and compared: IDNA A-labels, lower case, no trailing dot, at
 * least two labels, the last one alphabetic (or `xn--`).
 * @returns null when it is not a domain name
 */
export function normalizeDomain(input: string): string | null {
  const ascii = domainToASCII(input.trim().replace(/\.$/, '')).toLowerCase();
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  const tld = labels.at(-1) ?? '';
  return /^[a-z]{2,63}$/.test(tld) || tld.startsWith('xn--') ? ascii : null;
}
