/**
 * Characters nobody can see or type on purpose in an identifier: Unicode
 * `Default_Ignorable_Code_Point` (zero-width space and joiners, soft hyphen, bidirectional
 * controls, variation selectors, …), other format characters (`Cf`), controls (`Cc`) and line or
 * paragraph separators. PRECIS (RFC 8264 § 9) disallows all of them in identifiers; UTS 39's
 * skeleton drops the default-ignorable ones before comparing.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu;

/** True when `value` holds an invisible or control character ({@link INVISIBLE}). */
export function hasInvisible(value: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(value);
}

/** `value` without its invisible and control characters. */
export function stripInvisible(value: string): string {
  return value.replace(INVISIBLE, '');
}

/**
 * The comparison form of free text, after RFC 8265 § 3.3 (PRECIS UsernameCaseMapped) with NFKC
 * for its width mapping: invisible characters dropped, Unicode NFKC (fullwidth and other
 * compatibility forms become their plain letters and digits, `ﬁ` becomes `fi`), Unicode
 * `toLowerCase`, then NFC (so `josé` typed decomposed and precomposed compare equal).
 */
export function foldText(value: string): string {
  return stripInvisible(value).normalize('NFKC').toLowerCase().normalize('NFC');
}

/** True when every character is ASCII. */
export function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7f) return false;
  return true;
}
