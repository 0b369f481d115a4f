import { ens_normalize } from '@adraffy/ens-normalize';
import { parseEmail, unicodeDomain } from './email.js';
import { hasInvisible, isAscii } from './text.js';

/**
 * Why `letters` (one identifier: a local part without its ASCII punctuation, or one domain
 * label) would pass for someone else's, or null. The check is ENSIP-15's (the
 * `@adraffy/ens-normalize` library, Unicode 17), which applies UTS 39: characters of several
 * scripts that are not used together (`аda` with a Cyrillic `а`: "illegal mixture"), a whole
 * identifier of one script that reads as another script's (`аре` in Cyrillic against `ape`:
 * "whole-script confusable"), characters no identifier uses (symbols, marks on their own).
 * Latin with Han, Hiragana, Katakana or Hangul stays allowed (UTS 39 "highly restrictive").
 */
function identifierProblem(letters: string): string | null {
  if (letters.length === 0 || isAscii(letters)) return null;
  try {
    ens_normalize(letters);
    return null;
  } catch (error) {
    const reason = (error as Error).message;
    if (reason.startsWith('illegal mixture')) return 'mixes letters of different scripts';
    if (reason.startsWith('whole-script confusable')) {
      return "is written in letters that pass for another script's";
    }
    return `has characters an account name cannot use (${reason.split(':')[0]})`;
  }
}

/**
 * Why `value` may not become a new account's username or be invited (docs/auth.md § Usernames),
 * or null when it may:
 * - invisible or control characters anywhere (zero-width space, soft hyphen, bidi controls…);
 * - an e-mail address whose local part or a domain label mixes scripts or is a whole-script
 *   confusable (UTS 39; ASCII-only parts always pass).
 * Width, case and Unicode normalization are not refused: they only change the spelling of the
 * same key, which the unique index then catches.
 */
export function lookAlikeProblem(value: string): string | null {
  if (hasInvisible(value)) return 'must not contain invisible or control characters';
  const email = parseEmail(value);
  if (!email) return null;
  // ASCII punctuation (`.`, `+`, `_`, `-`, …) separates words of the local part; the letters and
  // digits are what reads as a name.
  const local = identifierProblem(email.local.replace(/[!-/:-@[-`{-~]/g, ''));
  if (local) return `local part ${local}`;
  for (const label of unicodeDomain(email.domain).split('.')) {
    const problem = identifierProblem(label);
    if (problem) return `domain ${problem}`;
  }
  return null;
}
