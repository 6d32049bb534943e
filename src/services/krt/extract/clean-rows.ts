// Rows from text that are not resources, and rows that are the same resource twice. Applied to the learned
// extractor's kept rows (best first):
// - a figure-legend pointer after a name is cut ("TEPP-46 (bottom)" → "TEPP-46", "Verteporfin (right)"), a dilution
//   too ("anti-bovine 1:250"), and the function words text leaves around a name ("either anti-human IgG",
//   "SDS-PAGE gel using a");
// - a phenotype or descriptor is not a resource ("GFP-positive", "high-GFP", "RFP-labelled",
//   "SARS-CoV-2-positive", "Species-specific"), nor a generic heading ("Analysis Software", "version
//   10.6.1"), nor a supplier's name ("GraphPad Software", read from "Prism (GraphPad Software)"), nor a quantity
//   ("633 nm"), nor a kind of resource alone ("antibody", "goat serum", "Alexa Fluor"), nor a piece of a methods
//   sentence ("concentration EDTA", "described above", "30 min", "CO2 until analysis", "1E-6 dilution");
// - a common laboratory chemical named alone (PBS, NaCl, EDTA, ethanol, PFA…) is left out: key resources tables
//   leave out standard buffers and solvents (in the cross-validation, 14% of such rows were in the authors' tables,
//   against 27% of all rows); with a catalog number or RRID it stays;
// - a closing parenthesis left of a sentence is cut ("GFP)" → "GFP");
// - rows naming the same resource (the same compact name, or a shared identifier; for software without its version,
//   its maker's name and the word "software") are merged into the first, the strongest: identifiers and source
//   joined, the evidence of both kept;
// - the type comes from the strongest evidence: the registry of an RRID the row carries (AB_ → Antibody, CVCL_ →
//   cell line, SCR_ → software, …), else the extractor's.

import { registryOf } from '../rrid/registry.ts';
import { nameTokens } from '../rrid/similarity.ts';
import { formatIdentifier, identifierKeys, parseIdentifierText } from './identifier.ts';
import type { KrtRow, ResourceType } from './krt-row.ts';
import { findVendor } from './vendors.ts';

const LEGEND_POINTER =
  /\s*\(\s*(?:(?:top|bottom|left|right|middle|center|centre|upper|lower|inset|above|below)(?:[\s,-]+(?:top|bottom|left|right|middle|panel|row|column))*|(?:panel|fig(?:ure)?\.?|supp\w*\.?)\s*[\w.,\s-]{0,12}|[a-h](?:\s*[,–-]\s*[a-h])?)\s*\)\s*$/i;
const DILUTION = /[\s,(]*\b1\s*:\s*\d[\d,]*\)?\s*$/;
const LEADING =
  /^(?:(?:either|both|using|employing|with|from|by|via|the|a|an|and|or|of|in|on|adherent|respectively|purchased|obtained|dilution of)\s+)+/i;
const TRAILING = /(?:\s+(?:using|with|from|by|via|the|a|an|and|or|of|in|on|to|for|was|were|respectively|diluted))+\s*$/i;

const MARKERS = String.raw`(?:gfp|egfp|rfp|yfp|cfp|mcherry|tdtomato|tomato|venus|luciferase|luc|flag|ha|myc|his|v5)`;
const PHENOTYPE = new RegExp(
  String.raw`^(?:(?:high|low|bright|dim|hi|lo|mid)[\s-]+${MARKERS}|${MARKERS}[\s-]*(?:high|low|hi|lo|bright|dim|\+|-)|[\w.\/-]{1,24}[\s-](?:positive|negative|expressing|expressed|labell?ed|tagged|deficient|null|knock-?out|overexpressing|specific|treated|derived|based|coated|conjugated|dependent|independent|sensitive|resistant|like|interacting))$`,
  'i',
);
const GENERIC_WORDS = new Set([
  'analysis',
  'statistical',
  'statistics',
  'software',
  'program',
  'programs',
  'package',
  'packages',
  'tool',
  'tools',
  'version',
  'data',
  'image',
  'imaging',
  'acquisition',
  'processing',
  'custom',
  'code',
  'script',
  'scripts',
  'algorithm',
  'algorithms',
  'platform',
]);

/** Kinds of resource named alone. */
const KIND_ALONE =
  /^(?:(?:primary|secondary|normal)\s+)?(?:(?:goat|donkey|horse|rabbit|mouse|fetal bovine|bovine)\s+)?(?:antibod(?:y|ies)|alexa\s*fluor(?:™|®)?|serum|sera|medium|media|buffer|kit|plasmid|cells?)$/i;
/** Words of a methods sentence, not of a resource name. */
const SENTENCE_WORDS =
  /\b(?:above|below|described|times|subjected|concentration|experiments?|every|respectively|were|was|then|after|before|until|minutes?|min|hours?|days?|postnatal day|dilution|administered|measured|protected)\b/i;
/** Standard buffers, salts, solvents and gases, named alone. */
const COMMODITY =
  /^(?:\d+\s*[x×]\s*)?(?:d?pbs|tbs|tbst|pbst|hbss|nacl|kcl|cacl2|mgcl2|mgso4|edta|egta|tris(?:[- ]hcl| base)?|hepes|pipes|ethanol|methanol|glycerol|water|co2|o2|dmso|sds|triton\s*x-100|tween(?:-|\s)?20|formaldehyde|paraformaldehyde|pfa|glucose|sucrose|bsa|nonfat milk|milk|agarose|glycine|urea|acetone|isopropanol|chloroform|hcl|naoh|dtt)$/i;

/** The name with legend pointers, dilutions and surrounding function words removed. */
export function cleanRowName(name: string): string {
  let out = name.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 3; i++) {
    const before = out;
    out = out
      .replace(LEGEND_POINTER, '')
      .replace(DILUTION, '')
      .replace(LEADING, '')
      .replace(TRAILING, '')
      .replace(/^([^()]*)\)$/, '$1')
      .trim();
    if (out === before) break;
  }
  return out;
}

/** Words a company's name ends with. */
const COMPANY_WORDS = /^(?:inc|ltd|llc|gmbh|co|corp|corporation|ag|sa|plc|company|software|technologies|technology|scientific|systems)$/;
/** A physical quantity written where a name would be ("633 nm", "800 MHz"). */
const QUANTITY = /^\d[\d.,]*\s*(?:nm|µm|μm|mm|[kMG]?Hz|m?W|kV|mV|V|kDa|rpm|°C)$/;

/** Whether a name is a supplier's ("GraphPad Software" read as a tool from "Prism (GraphPad Software)"). */
function isSupplierName(name: string): boolean {
  const vendor = findVendor(name);
  if (!vendor || vendor.index !== 0) return false;
  const rest = name
    .slice(vendor.length)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return rest.every((w) => COMPANY_WORDS.test(w));
}

/** Whether a (cleaned) name names no resource: a phenotype, a version alone or a generic heading. */
export function isNotAResource(name: string): boolean {
  if (!/\p{L}/u.test(name) || QUANTITY.test(name) || isSupplierName(name)) return true;
  if (PHENOTYPE.test(name) || KIND_ALONE.test(name) || SENTENCE_WORDS.test(name) || COMMODITY.test(name)) return true;
  const words = name
    .toLowerCase()
    .split(/[^\p{L}\p{N}.]+/u)
    .filter(Boolean);
  return words.every((w) => GENERIC_WORDS.has(w) || /^v?\d+(\.\d+)*[a-z]?$/.test(w));
}

const TOOL_WORDS = new Set(['software', 'package', 'program', 'programs', 'toolbox', 'suite', 'plugin', 'application']);

/** Compact name for duplicates: folded tokens without separators ("HEK-293T" = "HEK293T"). */
function duplicateKey(name: string, type: ResourceType): string {
  if (type !== 'Software/code') return nameTokens(name).join('');
  // One row per tool: the versions a text mentions, its maker's name and a word saying it is software do not make
  // another resource ("GraphPad Prism v8.0" = "Prism software", "Zeiss Zen 2.3 Blue software" = "Zen blue").
  const maker = findVendor(name);
  const tool = (text: string) => nameTokens(text, { dropVersions: true }).filter((t) => !TOOL_WORDS.has(t));
  const withoutMaker = maker?.index === 0 ? tool(name.slice(maker.length)) : [];
  return (withoutMaker.length ? withoutMaker : tool(name)).join('');
}

/** The type an RRID of the row fixes, if any (the registry that issued it). */
function typeOfIdentifier(identifier: string): ResourceType | null {
  for (const p of parseIdentifierText(identifier)) if (p.kind === 'rrid') return registryOf(p.value)?.resourceType ?? null;
  return null;
}

export interface CleanableRow {
  row: KrtRow;
}

/**
 * Cleaned rows, in order, duplicates merged into their first (best) row; `merge` says which later rows joined each
 * kept row (for their evidence).
 */
export function cleanRows<R extends CleanableRow>(rows: readonly R[]): { rows: R[]; merged: Map<R, R[]> } {
  const kept: R[] = [];
  const merged = new Map<R, R[]>();
  const byName = new Map<string, R>();
  const byIdentifier = new Map<string, R>();
  for (const item of rows) {
    const name = cleanRowName(item.row['RESOURCE NAME']);
    // A row with an identifier names something a supplier sells or a registry lists, whatever its wording.
    if (!name || (isNotAResource(name) && !item.row.IDENTIFIER.trim())) continue;
    const row: KrtRow = { ...item.row, 'RESOURCE NAME': name };
    const typed = typeOfIdentifier(row.IDENTIFIER);
    if (typed) row['RESOURCE TYPE'] = typed;
    const key = duplicateKey(name, row['RESOURCE TYPE']);
    const ids = [...identifierKeys(row.IDENTIFIER, { source: row.SOURCE })];
    const same = (key ? byName.get(key) : undefined) ?? ids.map((k) => byIdentifier.get(k)).find(Boolean);
    if (same) {
      mergeInto(same.row, row);
      merged.get(same)!.push(item);
      for (const k of identifierKeys(same.row.IDENTIFIER, { source: same.row.SOURCE })) byIdentifier.set(k, same);
      continue;
    }
    const cleaned = { ...item, row } as R;
    kept.push(cleaned);
    merged.set(cleaned, []);
    if (key) byName.set(key, cleaned);
    for (const k of ids) byIdentifier.set(k, cleaned);
  }
  return { rows: kept, merged };
}

/** Joins a duplicate's identifiers and source into the kept row; an RRID's registry then decides the type. */
function mergeInto(target: KrtRow, other: KrtRow): void {
  if (other.IDENTIFIER) {
    const parts = [
      ...parseIdentifierText(target.IDENTIFIER, { source: target.SOURCE }),
      ...parseIdentifierText(other.IDENTIFIER, { source: other.SOURCE }),
    ].filter((p) => p.kind !== 'none');
    target.IDENTIFIER = formatIdentifier(parts);
  }
  if (!target.SOURCE && other.SOURCE) target.SOURCE = other.SOURCE;
  if (!target['ADDITIONAL INFORMATION'] && other['ADDITIONAL INFORMATION'])
    target['ADDITIONAL INFORMATION'] = other['ADDITIONAL INFORMATION'];
  const typed = typeOfIdentifier(target.IDENTIFIER);
  if (typed) target['RESOURCE TYPE'] = typed;
}
