// Numbers, money and dates as each language writes them, through Intl (en-CA: 1,234.5 and $12,345; fr-CA: 1 234,5 and
// 12 345 $; dates December 6, 2026 / 6 décembre 2026). Formatters are made once per language and option set: building
// an Intl formatter costs far more than using one, and a large table formats thousands of cells.
import type { Language } from './language.ts';

const LOCALES: Record<Language, string> = { en: 'en-CA', fr: 'fr-CA' };

export function localeOf(language: Language): string {
  return LOCALES[language];
}

const MINUS_SIGN = '\u2212';

/**
 * French typography writes a negative number with the minus sign U+2212 (−0,9 ; −12 $), where Intl's fr-CA data writes
 * a hyphen-minus: the French formats put it in the place of the hyphen, in `format` and in `formatToParts` alike.
 */
class FrenchNumberFormat extends Intl.NumberFormat {
  override format(value: number | bigint): string {
    return super.format(value).replaceAll('-', MINUS_SIGN);
  }

  override formatToParts(value: number | bigint): Intl.NumberFormatPart[] {
    return super.formatToParts(value).map((part) => (part.type === 'minusSign' ? { ...part, value: MINUS_SIGN } : part));
  }
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, key: string, asked: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${language}|${key}`;
  let format = numberFormats.get(id);
  if (format === undefined) {
    // Intl's default ('auto') signs a value that rounds to zero from below (-0.4 → "-$0", "−0 $"); 'negative' signs only
    // what is written non-zero, so no page shows a signed zero. A caller's own signDisplay is kept.
    const options: Intl.NumberFormatOptions = { signDisplay: 'negative', ...asked };
    format = language === 'fr' ? new FrenchNumberFormat(LOCALES.fr, options) : new Intl.NumberFormat(LOCALES[language], options);
    numberFormats.set(id, format);
  }
  return format;
}

/**
 * The number format of a language with `options`, made once: what the message catalogues' `{n, number}` write with, so
 * that a message writes a number as the pages' own formatting does (French's minus sign included).
 */
export function numberFormatIn(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return numberFormat(language, `o${JSON.stringify(options)}`, options);
}

/** `value` with the language's separators and at most `maxDecimals` decimals. */
export function formatNumberIn(language: Language, value: number, maxDecimals = 0): string {
  return numberFormat(language, `n${maxDecimals}`, { maximumFractionDigits: maxDecimals }).format(value);
}

/** The sign the language writes before a negative number (- in English, − in French), for text that puts it itself. */
export function minusSignIn(language: Language): string {
  return (
    numberFormat(language, 'n0', { maximumFractionDigits: 0 })
      .formatToParts(-1)
      .find((p) => p.type === 'minusSign')?.value ?? '-'
  );
}

/** `value` with exactly `digits` decimals (1.000 / 1,000). */
export function formatFixed(language: Language, value: number, digits: number): string {
  return numberFormat(language, `f${digits}`, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** Canadian dollars: whole dollars by default ($12,345 / 12 345 $), or to the cent. */
export function formatMoney(language: Language, amount: number, cents = false): string {
  const digits = cents ? 2 : 0;
  return numberFormat(language, `m${digits}`, {
    style: 'currency',
    currency: 'CAD',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}

/** A share (0.123 → 12.3% / 12,3 %). */
export function formatPercent(language: Language, share: number, maxDecimals = 1): string {
  return numberFormat(language, `p${maxDecimals}`, { style: 'percent', maximumFractionDigits: maxDecimals }).format(share);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar date (YYYY-MM-DD, or the date part of an ISO time) in words: December 6, 2026 / 6 décembre 2026 (`short`:
 * Dec 6, 2026 / 6 déc. 2026). Read as a UTC date, so the server's time zone never moves it by a day; text that is not
 * a date is returned as it is.
 */
export function formatDate(language: Language, date: string, style: 'long' | 'short' = 'long'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return date;
  const id = `${language}|${style}`;
  let format = dateFormats.get(id);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LOCALES[language], { timeZone: 'UTC', day: 'numeric', month: style, year: 'numeric' });
    dateFormats.set(id, format);
  }
  const value = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(value.getTime())) return date;
  const written = format.format(value);
  // French writes the first of a month as an ordinal, « 1er avril » (Intl writes « 1 avril »)
  return language === 'fr' && value.getUTCDate() === 1 ? written.replace(/^1(?=\s)/, '1er') : written;
}
