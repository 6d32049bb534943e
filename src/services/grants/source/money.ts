// Money for service C: amounts are integer cents (exact); decimal text is converted digit by digit, never
// through binary floating point, so "1234.565" rounds to 123457 cents as a person would expect.

export type MoneyParse = { ok: true; cents: number } | { ok: false; reason: 'empty' | 'not_a_number' | 'out_of_range' };

// sign? $? sign? digits (with valid thousands commas) . fraction? exponent?
const MONEY_PATTERN = /^([+-]?)\s*\$?\s*([+-]?)\s*(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/**
 * Parses a dollar amount as written in the grants CSV into integer cents: "1,234.56", "$1234", "-$5",
 * "(1,000.00)" (accounting negative), "1.5E+06". More than two decimals round half away from zero
 * (the publisher's own rule: its database rounds agreement_value to 2 decimals).
 */
export function parseMoneyToCents(text: string | null | undefined): MoneyParse {
  if (text == null) return { ok: false, reason: 'empty' };
  let s = text.trim();
  if (s === '') return { ok: false, reason: 'empty' };
  let negative = false;
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(/\s*(?:CAD|CA\$)$/i, '');
  const m = MONEY_PATTERN.exec(s);
  if (!m) return { ok: false, reason: 'not_a_number' };
  const [, sign1, sign2, intPart = '', fracPart = '', expText] = m;
  if (sign1 && sign2) return { ok: false, reason: 'not_a_number' };
  if (intPart === '' && fracPart === '') return { ok: false, reason: 'not_a_number' };
  if (sign1 === '-' || sign2 === '-') negative = !negative;
  const cents = decimalDigitsToCents(intPart.replace(/,/g, ''), fracPart, expText ? Number(expText) : 0);
  if (cents === null) return { ok: false, reason: 'out_of_range' };
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
}

/** Digits `int.frac × 10^exp` → cents, half away from zero; null beyond Number.MAX_SAFE_INTEGER. */
function decimalDigitsToCents(intDigits: string, fracDigits: string, exponent: number): number | null {
  const digits = (intDigits + fracDigits).replace(/^0+(?=\d)/, '') || '0';
  // value = digits × 10^(exponent − fracDigits.length); cents = value × 100
  const shift = exponent - fracDigits.length + 2;
  let cents: bigint;
  if (shift >= 0) {
    if (shift > 30) return null;
    cents = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const drop = -shift;
    if (drop >= digits.length) {
      // everything is below one cent; only the first dropped digit decides
      const first = drop === digits.length ? Number(digits[0]) : 0;
      cents = first >= 5 ? 1n : 0n;
    } else {
      const kept = digits.slice(0, digits.length - drop);
      const firstDropped = Number(digits[digits.length - drop]);
      cents = BigInt(kept) + (firstDropped >= 5 ? 1n : 0n);
    }
  }
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(cents);
}

/** `$1,234.56`; negative `-$1,234.56`; from exact integer cents. */
export function formatCents(cents: number | bigint): string {
  let c = typeof cents === 'bigint' ? cents : BigInt(Math.trunc(cents));
  const negative = c < 0n;
  if (negative) c = -c;
  const dollars = (c / 100n).toString();
  const rest = (c % 100n).toString().padStart(2, '0');
  const grouped = dollars.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${rest}`;
}

/**
 * Rounds a dollar amount to cents, half away from zero, from its shortest decimal representation
 * (the digits JavaScript prints for it), so 0.005 → 1 cent and 1234.565 → 123457 cents even though
 * neither is exactly representable in binary.
 */
export function dollarsToCents(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError(`not a finite amount: ${amount}`);
  const negative = amount < 0;
  const text = Math.abs(amount).toString();
  let cents: number | null;
  const exp = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (exp) cents = decimalDigitsToCents(exp[1], exp[2] ?? '', Number(exp[3]));
  else {
    const [intPart, fracPart = ''] = text.split('.');
    cents = decimalDigitsToCents(intPart, fracPart, 0);
  }
  if (cents === null) throw new RangeError(`amount out of range: ${amount}`);
  return negative && cents !== 0 ? -cents : cents;
}

/** `$1,234.57` for 1234.565: half-up rounding of a dollar amount, see dollarsToCents. */
export function formatDollars(amount: number): string {
  return formatCents(dollarsToCents(amount));
}
