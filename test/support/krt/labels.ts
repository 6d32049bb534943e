// B's pages say what each of their numbers is: every percentage follows its label, and the further mentions'
// column of percentages has a header that says what they are.
import { textOf } from '../pages.ts';

/** The header of the further mentions' column of row-inclusion probabilities (the cells' label). */
export const INCLUSION_HEADER = 'Probability the authors list it (row-inclusion model)';

/** What the text just before a percentage ends with: the label of the number it is. */
const LABELS = [
  /probability the authors list it \(text extractor\): $/,
  /probability it is the authors’ identifier: $/,
  /probability this RRID is right: $/,
  /probability it is right: $/,
  /no RRID reaches a $/,
  /abstains below $/,
];

/**
 * The percentages of a page's main content that follow none of the labels, each with the text before it. The
 * paper's own words are not the page's numbers: the sentences quoted as evidence are left out, and so is a
 * percentage whose text (with the words just before it) is one of `data` (the table's cells).
 */
export function unlabelledPercentages(page: string, data: readonly string[] = []): string[] {
  let main = (/<main[^>]*>([\s\S]*)<\/main>/.exec(page)?.[1] ?? page).replace(/<blockquote>[\s\S]*?<\/blockquote>/g, ' ');
  const written = data.map(textOf);
  // A cell of the inclusion column is labelled by its header.
  if (main.includes(INCLUSION_HEADER)) main = main.replace(/<td class="num">\s*\d+\s?%\s*<\/td>/g, '<td></td>');
  const text = textOf(main);
  const found: string[] = [];
  for (const m of text.matchAll(/\d+(?:[.,]\d+)?\s?%/g)) {
    const before = text.slice(Math.max(0, m.index - 60), m.index);
    if (LABELS.some((label) => label.test(before))) continue;
    const quoted = `${before.split(/\s+/).slice(-2).join(' ')}${m[0]}`.trim();
    if (!written.some((cell) => cell.includes(quoted))) found.push(`…${before}${m[0]}`);
  }
  return found;
}
