// Article metadata from a JATS tree: what the DOI check, the DOI suggestions and article_info report.

import { childElements, findAll, firstChild, pathOf, textOf, type XmlElement } from './tree.ts';
import { normalizeDoi } from './doi.ts';

interface ArticleAuthor {
  surname: string;
  givenNames: string;
  /** "Surname Initials", e.g. "Sam IC" for I-Ching Sam; a collaboration's name as written. */
  display: string;
}

type UnreadableArticleField = 'publication_date' | 'version';

export interface ArticleMetadata {
  /** Normalised DOI (lower case, `10.1101/…`), or '' when the document carries none. */
  doi: string;
  title: string;
  authorList: ArticleAuthor[];
  /** Authors as "Surname Initials" joined with ", ". */
  authors: string;
  /** YYYY-MM-DD, or '' when the document has no usable date. */
  publicationDate: string;
  /** Journal or preprint server, e.g. "bioRxiv". */
  journal: string;
  /** Preprint version number when the document states one. */
  version: number | null;
  /** True for a preprint (article-type="preprint", a preprint server, or a 10.1101 DOI). */
  isPreprint: boolean;
  abstract: string;
  /**
   * Fields the document writes but that cannot be read (a `<pub-date>` without a readable year, month or day; an
   * `<article-version>` that is not a number): the store keeps what it holds for them.
   */
  unreadable: UnreadableArticleField[];
  keywords: string[];
  subjects: string[];
}

export function initialsOf(givenNames: string): string {
  // "Yoong Min" → "YM", "I-Ching" → "IC", "J.-P." → "JP"; keeps letters of any script.
  return givenNames
    .split(/[\s\-‐.]+/u)
    .filter((part) => part.length > 0)
    .map((part) => part.match(/\p{L}/u)?.[0]?.toUpperCase() ?? '')
    .join('');
}

function authorOf(contrib: XmlElement): ArticleAuthor | null {
  const name = firstChild(contrib, 'name') ?? firstChild(firstChild(contrib, 'name-alternatives'), 'name');
  if (name) {
    const surname = textOf(firstChild(name, 'surname'));
    const givenNames = textOf(firstChild(name, 'given-names'));
    if (!surname && !givenNames) return null;
    const initials = initialsOf(givenNames);
    return { surname, givenNames, display: initials ? `${surname} ${initials}` : surname };
  }
  const stringName = firstChild(contrib, 'string-name') ?? firstChild(contrib, 'collab');
  const text = textOf(stringName);
  return text ? { surname: text, givenNames: '', display: text } : null;
}

const DATE_PREFERENCE = ['preprint', 'epub', 'pub', 'ppub', 'epreprint', 'collection', 'nihms-submitted'];

function dateOf(el: XmlElement): string {
  const year = Number.parseInt(textOf(firstChild(el, 'year')), 10);
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return '';
  // A month or day the document leaves out is the first; one it writes but that cannot be read makes the date
  // unreadable rather than a date no source wrote.
  const monthText = textOf(firstChild(el, 'month')).trim();
  const month = monthText === '' ? 1 : /^\d+$/.test(monthText) ? Number(monthText) : monthFromName(monthText);
  if (month < 1 || month > 12) return '';
  const dayText = textOf(firstChild(el, 'day')).trim();
  const day = dayText === '' ? 1 : Number.parseInt(dayText, 10);
  const m = month;
  const maxDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
  if (!Number.isInteger(day) || day < 1 || day > maxDay) return '';
  const d = day;
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthFromName(text: string): number {
  const i = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(text.slice(0, 3).toLowerCase());
  return i + 1;
}

function publicationDateOf(articleMeta: XmlElement | undefined): string {
  if (!articleMeta) return '';
  const dates = childElements(articleMeta, 'pub-date');
  const rank = (el: XmlElement) => {
    const type = el.attrs['pub-type'] ?? el.attrs['date-type'] ?? '';
    const i = DATE_PREFERENCE.indexOf(type);
    return i < 0 ? DATE_PREFERENCE.length : i;
  };
  for (const el of [...dates].sort((a, b) => rank(a) - rank(b))) {
    const date = dateOf(el);
    if (date) return date;
  }
  return '';
}

export function readArticleMetadata(article: XmlElement): ArticleMetadata {
  const front = firstChild(article, 'front');
  const meta = firstChild(front, 'article-meta');
  const journalMeta = firstChild(front, 'journal-meta');
  const ids = meta ? childElements(meta, 'article-id') : [];
  const doiText = textOf(ids.find((el) => el.attrs['pub-id-type'] === 'doi'));
  const doi = normalizeDoi(doiText) ?? doiText.toLowerCase();
  const title = textOf(pathOf(meta, 'title-group', 'article-title'), { skip: new Set(['xref', 'fn']) });

  const authorList: ArticleAuthor[] = [];
  for (const group of meta ? childElements(meta, 'contrib-group') : []) {
    for (const contrib of childElements(group, 'contrib')) {
      const type = contrib.attrs['contrib-type'];
      if (type && type !== 'author') continue;
      const author = authorOf(contrib);
      if (author) authorList.push(author);
    }
  }

  const journal = textOf(pathOf(journalMeta, 'journal-title-group', 'journal-title')) || textOf(firstChild(journalMeta, 'journal-id'));
  const versionEl = meta
    ? findAll(
        meta,
        (el) =>
          el.name === 'article-version' &&
          (el.attrs['article-version-type'] === 'number' || el.attrs['article-version-type'] === 'publisher-id'),
      )[0]
    : undefined;
  const versionText = textOf(versionEl).trim();
  const versionNumber = Number.parseInt(versionText, 10);
  const publicationDate = publicationDateOf(meta);
  const unreadable: UnreadableArticleField[] = [];
  if (!publicationDate && meta && childElements(meta, 'pub-date').some((el) => textOf(el).trim() !== ''))
    unreadable.push('publication_date');
  if (versionText !== '' && !Number.isInteger(versionNumber)) unreadable.push('version');
  const serverJournal = /biorxiv|medrxiv|arxiv|preprint/i.test(journal);

  return {
    doi,
    title,
    authorList,
    authors: authorList.map((a) => a.display).join(', '),
    publicationDate,
    journal: journal.replace(/\s*:\s*the preprint server for .*$/i, '').trim() || journal,
    version: Number.isInteger(versionNumber) ? versionNumber : null,
    unreadable,
    isPreprint: article.attrs['article-type'] === 'preprint' || serverJournal || doi.startsWith('10.1101/'),
    abstract: textOf(firstChild(meta, 'abstract')),
    keywords: meta
      ? findAll(meta, (el) => el.name === 'kwd')
          .map((el) => textOf(el))
          .filter(Boolean)
      : [],
    subjects: meta
      ? findAll(meta, (el) => el.name === 'subject')
          .map((el) => textOf(el))
          .filter(Boolean)
      : [],
  };
}
