// Numbers as the pages write them (en-CA: 1,234.5). One formatter per number of decimals, made once:
// Number#toLocaleString with options builds a new formatter on every call, which
// was most of the time of a page with a large table.
const formatters = new Map<number, Intl.NumberFormat>();

/** `value` with thousands separators and at most `maxDecimals` decimals (none for whole numbers). */
export function formatNumber(value: number, maxDecimals = 0): string {
  let formatter = formatters.get(maxDecimals);
  if (formatter === undefined) {
    // signDisplay 'negative': a value that rounds to zero from below is written 0, never -0 (as core/i18n does).
    formatter = new Intl.NumberFormat('en-CA', { maximumFractionDigits: maxDecimals, signDisplay: 'negative' });
    formatters.set(maxDecimals, formatter);
  }
  return formatter.format(value);
}
