// Federal income tax and GST in exact arithmetic (BigInt cents and rational intermediate values), rounded
// once, half up, to the cent at the end.
import { GST_RATE_PER_MILLE, taxYearTable } from './constants.ts';
import type { TaxYear } from './constants.ts';

export interface FederalTaxBreakdown {
  year: number;
  /** Tax on taxable income by the brackets, before credits (rounded to the cent for display). */
  bracketTaxCents: number;
  /** The basic personal amount that applies at this income (after any phase-out), rounded to the cent. */
  basicPersonalAmountCents: number;
  /** Lowest rate × BPA, rounded to the cent for display. */
  bpaCreditCents: number;
  /** max(0, bracket tax − BPA credit), computed exactly and rounded half up once. */
  taxCents: number;
}

/** n / d rounded half up (n ≥ 0, d > 0). */
function roundHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

function lowerBoundOfRate(table: TaxYear, ratePerMille: number): bigint | null {
  const b = table.brackets.find((x) => x.ratePerMille === ratePerMille);
  return b ? BigInt(b.lowerDollars) * 100n : null;
}

/**
 * Federal income tax of a tax year: Σ brackets − (lowest rate × basic personal amount), floored at 0.
 * From 2020 the BPA enhancement phases out between the 29% and 33% bracket thresholds (the law uses net
 * income; the calculator's income stands for both). Other credits and deductions are not modelled.
 */
export function federalIncomeTax(incomeCents: number, year: number): FederalTaxBreakdown {
  if (!Number.isSafeInteger(incomeCents) || incomeCents < 0) throw new RangeError('income must be a non-negative whole number of cents');
  const table = taxYearTable(year);
  if (!table) throw new RangeError(`no federal tax table for ${year}`);
  const income = BigInt(incomeCents);

  // Σ portion_in_bracket (cents) × rate (‰): units of 1/1000 cent.
  let bracketMilli = 0n;
  for (let i = 0; i < table.brackets.length; i++) {
    const lower = BigInt(table.brackets[i].lowerDollars) * 100n;
    const upper = i + 1 < table.brackets.length ? BigInt(table.brackets[i + 1].lowerDollars) * 100n : null;
    if (income <= lower) break;
    const top = upper !== null && income > upper ? upper : income;
    bracketMilli += (top - lower) * BigInt(table.brackets[i].ratePerMille);
  }

  // BPA = bpaNum / bpaDen cents.
  const max = BigInt(table.bpa.maxDollars) * 100n;
  let bpaNum = max;
  let bpaDen = 1n;
  if (table.bpa.minDollars !== undefined) {
    const min = BigInt(table.bpa.minDollars) * 100n;
    const t29 = lowerBoundOfRate(table, 290);
    const t33 = lowerBoundOfRate(table, 330);
    if (t29 === null || t33 === null) throw new Error(`tax table ${year}: the BPA phase-out needs the 29% and 33% brackets`);
    if (income >= t33) bpaNum = min;
    else if (income > t29) {
      bpaDen = t33 - t29;
      bpaNum = max * bpaDen - (max - min) * (income - t29);
    }
  }
  const lowestRate = BigInt(table.brackets[0].ratePerMille);
  // tax (1/1000 cent) = bracketMilli − bpa × lowestRate = (bracketMilli × bpaDen − bpaNum × lowestRate) / bpaDen
  const taxNum = bracketMilli * bpaDen - bpaNum * lowestRate;
  const taxCents = taxNum <= 0n ? 0n : roundHalfUp(taxNum, bpaDen * 1000n);
  return {
    year,
    bracketTaxCents: Number(roundHalfUp(bracketMilli, 1000n)),
    basicPersonalAmountCents: Number(roundHalfUp(bpaNum, bpaDen)),
    bpaCreditCents: Number(roundHalfUp(bpaNum * lowestRate, bpaDen * 1000n)),
    taxCents: Number(taxCents),
  };
}

/** GST paid on eligible spending: 5%, rounded half up to the cent. */
export function gstCents(spendingCents: number): number {
  if (!Number.isSafeInteger(spendingCents) || spendingCents < 0)
    throw new RangeError('spending must be a non-negative whole number of cents');
  return Number(roundHalfUp(BigInt(spendingCents) * BigInt(GST_RATE_PER_MILLE), 1000n));
}
