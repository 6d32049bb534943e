// SIGN 138, "Dental interventions to prevent caries in children" (sign138_recommendations.json) → one
// GuidelineInput with country UK and region Scotland.
//
// Each recommendation keeps its number (the key: `rec-<number>`), grade (A/B/C), strength and quality of
// evidence. Title and keywords follow the same rules as the toolkit (text.ts). The target population is
// the one the guideline's title names ("… in children"); there is no clinical context or page number.
// The file's "reference" names the guideline itself ("SIGN 138 - Grade A recommendation …"), so that
// reference carries the guideline's own address.

import {
  asObject,
  type GuidelineParse,
  optionalInteger,
  optionalString,
  readJsonFile,
  requiredString,
  recommendationRows,
  vocabularySlugs,
} from './guideline-source.ts';
import { deriveKeywords, deriveTitle, parseReference } from './text.ts';
import type { ReferenceInput, SourceIssue } from './types.ts';
import { findCountry, slugify, UK_NATIONS, type CountryCode } from './vocabulary.ts';

const ORGANIZATION_WEBSITES: Record<string, string> = {
  'Scottish Intercollegiate Guidelines Network (SIGN)': 'https://www.sign.ac.uk',
};

/** A UK nation ("Scotland") is country UK with that region; otherwise one of the five countries. */
export function countryAndRegion(label: string): { country: CountryCode; region: string | null } {
  const nation = UK_NATIONS.find((n) => n.toLowerCase() === label.trim().toLowerCase());
  if (nation) return { country: 'UK', region: nation };
  const country = findCountry(label);
  if (!country) throw new Error(`unknown country "${label}"`);
  return { country: country.code, region: null };
}

/** The population a guideline's title names ("… in children" → "Children"), else null. */
export function populationFromTitle(title: string): string | null {
  const match = /\b(?:in|for) (children and young people|children and adolescents|children|adolescents|adults|older people)\b/i.exec(title);
  if (!match) return null;
  return match[1].charAt(0).toUpperCase() + match[1].slice(1).toLowerCase();
}

export function parseSign(json: unknown): GuidelineParse {
  const root = asObject(json, 'SIGN file');
  const title = requiredString(root, 'guideline_title', 'SIGN file');
  const organization = requiredString(root, 'organization', 'SIGN file');
  const number = optionalString(root, 'guideline_number');
  const year = optionalInteger(root, 'year');
  const url = optionalString(root, 'source_url');
  const { country, region } = countryAndRegion(requiredString(root, 'country', 'SIGN file'));
  const rows = root.recommendations;
  if (!Array.isArray(rows)) throw new Error('SIGN file: "recommendations" must be an array');
  const targetPopulation = populationFromTitle(title);

  const issues: SourceIssue[] = [];
  const recommendations = recommendationRows(
    rows,
    issues,
    (row) => {
      const recommendationNumber = optionalString(row, 'recommendation_number');
      return recommendationNumber === null
        ? { skip: 'no recommendation_number to key the row by' }
        : { key: `rec-${recommendationNumber}` };
    },
    (row, text, sourceKey, where) => {
      const referenceText = optionalString(row, 'reference');
      const references: ReferenceInput[] = [];
      if (referenceText !== null) {
        const reference = parseReference(referenceText);
        const namesGuideline = number !== null && referenceText.toLowerCase().includes(number.toLowerCase());
        references.push(namesGuideline && reference.url === null ? { ...reference, url } : reference);
      }
      return {
        source_key: sourceKey,
        title: deriveTitle(text),
        text,
        keywords: deriveKeywords(text),
        target_population: targetPopulation,
        clinical_context: null,
        source_url: url,
        page_number: null,
        ...vocabularySlugs(
          {
            strength: optionalString(row, 'strength'),
            evidenceQuality: optionalString(row, 'evidence_quality'),
            topic: optionalString(row, 'topic'),
          },
          where,
        ),
        grade: optionalString(row, 'grade'),
        recommendation_number: optionalString(row, 'recommendation_number'),
        references,
      };
    },
  );

  return {
    guideline: {
      source_key: number !== null ? slugify(number) : `sign-${slugify(title)}`,
      title,
      description:
        `${number !== null ? `${number}: ` : ''}${title}. ${organization}, ${year ?? 'undated'}. ` +
        `Recommendations${region ? ` for ${region}` : ''} with their grade, strength and quality of evidence.`,
      organization: { name: organization, website: ORGANIZATION_WEBSITES[organization] ?? null },
      country,
      region,
      publication_year: year,
      url,
      is_demo: false,
      recommendations,
    },
    rowsRead: rows.length,
    issues,
  };
}

export async function readSign(path: string | URL): Promise<GuidelineParse> {
  return parseSign(await readJsonFile(path));
}
