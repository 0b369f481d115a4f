/**
 * Money amounts (docs/architecture.md § Amounts): JSON numbers on the wire, `NUMERIC(38,8)` in
 * PostgreSQL, > 0, at most 8 decimals, at most 1e15. In between they travel as exact decimal
 * text, never as floating-point arithmetic.
 */

/** Largest accepted amount (inclusive). */
export const MAX_AMOUNT = 1e15;
/** Decimals an amount may carry. */
export const AMOUNT_DECIMALS = 8;

/**
 * An exact decimal amount, e.g. `Amount.of("12.5")`. Serialized by the wallet service's reply
 * serializer as the number literal itself (`12.5`), digit for digit; `toJSON` (other writers)
 * falls back to the nearest double.
 */
export class Amount {
  private constructor(readonly text: string) {}

  /** From PostgreSQL NUMERIC text (`"12.50000000"`, `"-3.00000000"`): trailing zeros dropped. */
  static fromNumeric(text: string): Amount {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new Error(`not a decimal: ${text}`);
    let t = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
    if (t === '-0' || t === '') t = '0';
    return new Amount(t);
  }

  /**
   * From a validated JSON number (see {@link amountProblem}): its shortest round-trip decimal
   * form, without exponent (`1e-7` → `0.0000001`).
   */
  static fromNumber(value: number): Amount {
    return new Amount(plainDecimal(value));
  }

  /** The same amount without its sign. */
  abs(): Amount {
    return this.text.startsWith('-') ? new Amount(this.text.slice(1)) : this;
  }

  isNegative(): boolean {
    return this.text.startsWith('-');
  }

  toJSON(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}

/**
 * Why `value` is not an acceptable amount, or null when it is. Only JSON numbers count: a
 * string, even `"10"`, is refused, as are NaN, infinities, zero, negatives, more than 8 decimals
 * and anything above 1e15.
 *
 * The server sees the double a JSON parser makes of the literal; a literal with more precision
 * than a double holds (beyond ~15 significant digits) arrives as its nearest double and is judged
 * by that value's shortest decimal form.
 */
export function amountProblem(value: unknown): string | null {
  if (typeof value !== 'number') return 'must be a JSON number (not a string)';
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (value <= 0) return 'must be greater than 0';
  if (value > MAX_AMOUNT) return `must be at most ${MAX_AMOUNT}`;
  const text = plainDecimal(value);
  const dot = text.indexOf('.');
  if (dot >= 0 && text.length - dot - 1 > AMOUNT_DECIMALS) {
    return `must have at most ${AMOUNT_DECIMALS} decimals`;
  }
  return null;
}

/** The shortest round-trip decimal text of a finite double, never in exponent notation. */
export function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, int, frac = '', exp] = match;
  const digits = int + frac;
  const point = int.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`.replace(/\.?0+$/, '');
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
