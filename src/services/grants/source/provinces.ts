// Provinces and territories as the standard 2-letter codes (the grants schema's controlled list), from
// codes, English or French names and common abbreviations. Anything ambiguous or unknown maps to ''.
import { ownCopy } from '../../../core/source-text.ts';

export const PROVINCE_CODES = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'] as const;
export type ProvinceCode = (typeof PROVINCE_CODES)[number];

export const PROVINCE_NAMES_EN: Readonly<Record<ProvinceCode, string>> = {
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
};

// Keys are folded (lower case, no accents, punctuation as spaces, single spaces).
const ALIASES: ReadonlyArray<[ProvinceCode, string[]]> = [
  ['AB', ['alberta', 'alta']],
  ['BC', ['british columbia', 'colombie britannique', 'b c', 'cb']],
  ['MB', ['manitoba', 'man']],
  ['NB', ['new brunswick', 'nouveau brunswick', 'n b']],
  [
    'NL',
    [
      'newfoundland and labrador',
      'newfoundland labrador',
      'newfoundland',
      'terre neuve et labrador',
      'terre neuve',
      'nfld',
      'n l',
      'nf',
      'tnl',
    ],
  ],
  ['NS', ['nova scotia', 'nouvelle ecosse', 'n s']],
  ['NT', ['northwest territories', 'territoires du nord ouest', 'n w t', 'nwt', 'tno']],
  ['NU', ['nunavut', 'nvt']],
  ['ON', ['ontario', 'ont']],
  ['PE', ['prince edward island', 'ile du prince edouard', 'p e i', 'pei', 'ipe']],
  ['QC', ['quebec', 'province de quebec', 'province of quebec', 'que', 'pq']],
  ['SK', ['saskatchewan', 'sask']],
  ['YT', ['yukon', 'yukon territory', 'territoire du yukon', 'y t', 'yk']],
];

const LOOKUP = new Map<string, ProvinceCode>();
for (const code of PROVINCE_CODES) LOOKUP.set(code.toLowerCase(), code);
for (const [code, names] of ALIASES) for (const n of names) LOOKUP.set(n, code);

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/** 'ON' for "ON", "on", "Ontario", "Ont."; 'QC' for "Québec"; '' when empty, unknown or ambiguous. */
export function normaliseProvince(raw: string | null | undefined): ProvinceCode | '' {
  if (!raw) return '';
  // a file spells its provinces a few dozen ways, a million times over: each spelling is folded once
  let code = SEEN.get(raw);
  if (code === undefined) {
    const key = fold(raw);
    code = key === '' ? '' : (LOOKUP.get(key) ?? LOOKUP.get(key.replace(/ /g, '')) ?? '');
    if (SEEN.size >= MAX_SEEN) SEEN.clear();
    SEEN.set(ownCopy(raw), code);
  }
  return code;
}

const SEEN = new Map<string, ProvinceCode | ''>();
const MAX_SEEN = 1000;
