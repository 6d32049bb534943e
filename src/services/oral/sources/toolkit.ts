// England's "Delivering better oral health" toolkit (uk_guidelines.json) → one GuidelineInput.
//
// Every row of the file becomes a recommendation, also when its text repeats a row of another table: the
// tables address different groups and conditions, so identical advice carries different context. A row's
// key is its place in the toolkit's summary tables (`ch<chapter>-t<table>-r<row>`), which is unique.
// Title: the first sentence of the text (text.ts deriveTitle). Keywords: lexicon terms found in the text
// (text.ts deriveKeywords). clinical_context: the row's table context as the file names it. source_url: the
// chapter that holds the evidence for the row (the file's `detailed_chapter_url`), else the summary page.
// The file has no target population and no page numbers (the toolkit is a web page): both stay null.

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
import { deriveKeywords, deriveTitle, splitReferences } from './text.ts';
import type { SourceIssue } from './types.ts';

// The toolkit is published for England (the devolved nations publish their own guidance); the file says
// only "United Kingdom", so the nation is stated here.
const REGION = 'England';
// Known publisher websites, by the name the file gives; another publisher gets no website rather than a guess.
const ORGANIZATION_WEBSITES: Record<string, string> = {
  'Department of Health and Social Care': 'https://www.gov.uk/government/organisations/department-of-health-and-social-care',
};

function parseToolkit(json: unknown): GuidelineParse {
  const root = asObject(json, 'toolkit file');
  const title = requiredString(root, 'guideline_title', 'toolkit file');
  const organization = requiredString(root, 'organization', 'toolkit file');
  const year = optionalInteger(root, 'year');
  const url = optionalString(root, 'source_url');
  const rows = root.recommendations;
  if (!Array.isArray(rows)) throw new Error('toolkit file: "recommendations" must be an array');

  const issues: SourceIssue[] = [];
  const recommendations = recommendationRows(
    rows,
    issues,
    (row) => {
      const chapter = optionalInteger(row, 'chapter_number');
      const table = optionalInteger(row, 'table_index');
      const rowIndex = optionalInteger(row, 'row_index');
      if (chapter === null || table === null || rowIndex === null)
        return { skip: 'no chapter_number, table_index or row_index to key the row by' };
      return { key: `ch${chapter}-t${table}-r${rowIndex}` };
    },
    (row, text, sourceKey, where) => ({
      source_key: sourceKey,
      title: deriveTitle(text),
      text,
      keywords: deriveKeywords(text),
      target_population: null,
      clinical_context: optionalString(row, 'table_context'),
      source_url: optionalString(row, 'detailed_chapter_url') ?? optionalString(row, 'source_url') ?? url,
      page_number: null,
      ...vocabularySlugs(
        {
          strength: optionalString(row, 'strength'),
          evidenceQuality: optionalString(row, 'evidence_quality'),
          topic: optionalString(row, 'topic'),
        },
        where,
      ),
      grade: null,
      recommendation_number: null,
      references: splitReferences(optionalString(row, 'reference')),
    }),
  );

  return {
    guideline: {
      source_key: `england-dboh-${year ?? 'undated'}`,
      title,
      description:
        `${title}. ${organization}, ${year ?? 'undated'}. Recommendations of the toolkit's summary guidance ` +
        'tables for England, each with its strength, quality of evidence, topic and references.',
      organization: { name: organization, website: ORGANIZATION_WEBSITES[organization] ?? null },
      country: 'UK',
      region: REGION,
      publication_year: year,
      url,
      is_demo: false,
      recommendations,
    },
    rowsRead: rows.length,
    issues,
  };
}

export async function readToolkit(path: string | URL): Promise<GuidelineParse> {
  return parseToolkit(await readJsonFile(path));
}
