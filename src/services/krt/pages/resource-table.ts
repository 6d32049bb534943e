// A key resources table as the pages show it (a paper's, or the one a chat session builds): every row with the
// validation of the RRIDs it writes (valid / unverified / invalid, with the reason) and, for a reused resource
// without an RRID, the service's RRID suggestions with their calibrated confidence and their evidence (the papers
// of the store that write that RRID), or the plain statement that the service abstains. The same answers as
// POST /api/ai/validate-rrid/ and /api/ai/suggest-rrid/ (KrtAnswers), so a page never says what the API would not.
// A text-built table's rows and further mentions also show, in their identifier cell, the candidates the API's
// row_evidence and further_mentions list for it (identifier_candidates), with their probability and papers.
import type { Kysely } from 'kysely';
import { html, joinHtml } from '../../../core/pages/index.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import type { KrtAnswers } from '../answers.ts';
import { parseIdentifierText } from '../extract/identifier.ts';
import type { FurtherMention, KrtRow, RowEvidence } from '../extract/index.ts';
import { ABSTAIN_BELOW, resolverUrl } from '../rrid/index.ts';
import type { IdentifierCandidate } from '../rrid/fill-model.ts';
import type { RridValidation } from '../rrid/index.ts';
import type { KrtDatabase } from '../tables.ts';
import { papersByDoi } from './reads.ts';
import type { EvidencePaper } from './reads.ts';
import { richMessage } from '../messages/index.ts';
import type { Words } from './shared.ts';

/** Suggestions shown per row, and evidence papers listed per suggestion. */
const SUGGESTIONS_PER_ROW = 3;
const EVIDENCE_PER_SUGGESTION = 5;

interface RowSuggestion {
  rrid: string;
  confidence: number;
  reasoning: string;
  resourceName: string;
  vendor: string;
  catalogNumber: string;
  /** Papers of the store that write the RRID (all of them, counted by the knowledge base). */
  papers: number;
  /** The first of them (most mentions first), with their titles. */
  evidence: EvidencePaper[];
}

type RowLookup =
  /** The row writes a well-formed RRID: it is validated, not looked up. */
  | { kind: 'has-rrid' }
  /** A resource the paper made: no earlier paper can attest an RRID for it. */
  | { kind: 'new' }
  | { kind: 'suggested'; suggestions: RowSuggestion[] }
  /** Nothing reaches the calibrated confidence the service requires (ABSTAIN_BELOW). */
  | { kind: 'abstained' };

/** A text-built row's evidence as the API serves it: with the candidates for its empty identifier cell. */
export type WithCandidates<T> = T & { identifier_candidates?: readonly IdentifierCandidate[] };

export interface AnnotatedRow {
  row: KrtRow;
  validations: RridValidation[];
  lookup: RowLookup;
  /** For a row the text extractor found: the sentence it came from, its calibrated confidence and its candidates. */
  found?: WithCandidates<RowEvidence>;
}

/**
 * Validations and suggestions for each row. `exclude` is the paper the table belongs to: it is not listed as
 * evidence for its own rows. `found`: the text extractor's sentence and confidence per row (the API's row_evidence).
 */
export async function annotateRows(
  answers: KrtAnswers,
  db: Kysely<KrtDatabase>,
  rows: readonly KrtRow[],
  options: { exclude?: string; found?: readonly WithCandidates<RowEvidence>[] | null } = {},
): Promise<AnnotatedRow[]> {
  const loaded = await answers.knowledge.get();
  const annotated: Array<AnnotatedRow & { evidenceDois: string[][] }> = [];
  for (const [position, row] of rows.entries()) {
    const found = options.found?.[position];
    const parts = parseIdentifierText(row.IDENTIFIER);
    const validations: RridValidation[] = [];
    for (const part of parts) {
      if (part.kind === 'rrid') validations.push(await answers.validate(`RRID:${part.value}`));
      else if (part.kind === 'unresolved-rrid') validations.push(await answers.validate(part.value));
    }
    const hasRrid = parts.some((p) => p.kind === 'rrid');
    if (hasRrid || row['NEW/REUSE'] === 'new' || !row['RESOURCE NAME'].trim()) {
      annotated.push({ row, validations, lookup: { kind: hasRrid ? 'has-rrid' : 'new' }, evidenceDois: [], ...(found ? { found } : {}) });
      continue;
    }
    const catalog = parts.find((p) => p.kind === 'catalog');
    const { suggestions } = await answers.suggest({
      resourceName: row['RESOURCE NAME'],
      resourceType: row['RESOURCE TYPE'],
      vendor: row.SOURCE.trim() || undefined,
      catalogNumber: catalog?.value,
      limit: SUGGESTIONS_PER_ROW,
    });
    const evidenceDois = suggestions.map((s) => {
      const entry = loaded?.kb.entryById(s.id);
      if (!entry) return [];
      return [...entry.papers]
        .filter(([doi]) => doi !== options.exclude)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, EVIDENCE_PER_SUGGESTION)
        .map(([doi]) => doi);
    });
    annotated.push({
      row,
      validations,
      lookup:
        suggestions.length === 0
          ? { kind: 'abstained' }
          : {
              kind: 'suggested',
              suggestions: suggestions.map((s) => ({
                rrid: s.suggested_rrid,
                confidence: s.confidence_score,
                reasoning: s.reasoning,
                resourceName: s.resource_name,
                vendor: s.vendor,
                catalogNumber: s.catalog_number,
                papers: s.papers,
                evidence: [],
              })),
            },
      evidenceDois,
      ...(found ? { found } : {}),
    });
  }
  const papers = await papersByDoi(
    db,
    annotated.flatMap((a) => a.evidenceDois.flat()),
  );
  return annotated.map(({ evidenceDois, ...a }) => {
    if (a.lookup.kind !== 'suggested') return a;
    const suggestions = a.lookup.suggestions.map((s, i) => ({
      ...s,
      evidence: (evidenceDois[i] ?? []).flatMap((doi) => papers.get(doi) ?? []),
    }));
    return { ...a, lookup: { kind: 'suggested' as const, suggestions } };
  });
}

// ---- rendering ------------------------------------------------------------------------------------------------------

const STATUS_BADGE: Record<string, { tone: string; icon: string; words: 'badge.valid' | 'badge.unverified' | 'badge.invalid' }> = {
  valid: { tone: 'good', icon: '✓', words: 'badge.valid' },
  unverified: { tone: 'warn', icon: '?', words: 'badge.unverified' },
  invalid: { tone: 'bad', icon: '✗', words: 'badge.invalid' },
};

function validationBadge(v: RridValidation, w: Words): SafeHtml {
  const known = STATUS_BADGE[v.status];
  const badge = known ? { ...known, words: w.t(known.words) } : { tone: 'neutral', icon: '', words: v.status };
  return html`<div class="rrid-check">
    <span class="badge ${badge.tone}"><span aria-hidden="true">${badge.icon}</span> ${badge.words}</span>
    <code>${v.rrid}</code>${v.registry ? html` <span class="muted">(${v.registry})</span>` : ''}
    ${v.recommendations.length > 0 ? html`<p class="reason">${v.recommendations.join(' ')}</p>` : ''}
  </div>`;
}

const percent = (w: Words, p: number) => w.loc.percent(p, 0);

function suggestionItem(s: RowSuggestion, w: Words): SafeHtml {
  const { t } = w;
  const id = s.rrid.replace(/^RRID:/, '');
  const more = s.papers - s.evidence.length;
  return html`<li>
    <strong><code>${s.rrid}</code></strong>
    <span class="badge neutral" title="${t('suggestion.confidenceTitle')}"
      >${t('suggestion.confidence', { confidence: percent(w, s.confidence) })}</span
    >
    <a href="${resolverUrl(id)}">${t('suggestion.resolver')}</a>
    <p class="reason">${s.reasoning}</p>
    ${
      s.evidence.length > 0
        ? html`<p class="evidence-head">
              ${t('suggestion.evidenceListed', { papers: s.papers, more: more > 0 ? 'yes' : 'no', listed: s.evidence.length })}
            </p>
            <ul class="evidence">
              ${s.evidence.map(
                (p) =>
                  html`<li>
                    <a href="/paper?doi=${encodeURIComponent(p.doi)}">${p.title}</a
                    >${p.publication_date ? html` (${p.publication_date.slice(0, 4)})` : ''}
                    ${p.is_demo ? html`<span class="badge warn">${t('badge.demoArticle')}</span>` : ''}
                  </li>`,
              )}
            </ul>`
        : html`<p class="evidence-head">${t('suggestion.evidence', { papers: s.papers })}</p>`
    }
  </li>`;
}

function lookupCell(a: AnnotatedRow, w: Words): SafeHtml {
  const { t } = w;
  const checks = joinHtml(a.validations.map((v) => validationBadge(v, w)));
  switch (a.lookup.kind) {
    case 'has-rrid':
      return checks;
    case 'new':
      return html`${checks}
        <p class="muted">${t('lookup.new')}</p>`;
    case 'abstained':
      return html`${checks}
        <p class="abstain">
          <span class="badge neutral">${t('lookup.noSuggestion')}</span> ${t('lookup.abstains', { threshold: percent(w, ABSTAIN_BELOW) })}
        </p>`;
    case 'suggested': {
      const best = a.lookup.suggestions[0];
      return html`${checks}
        <details class="rrid-suggestions">
          <summary>
            ${richMessage(
              t,
              'lookup.suggestions',
              { count: a.lookup.suggestions.length, confidence: percent(w, best.confidence) },
              { rrid: html`<code>${best.rrid}</code>` },
            )}
          </summary>
          <p class="muted">${t('suggestion.meaning')}</p>
          <ol>
            ${a.lookup.suggestions.map((s) => suggestionItem(s, w))}
          </ol>
        </details>`;
    }
  }
}

/** Where the text extractor read a row, and its probability that the authors list it (calibrated out of sample). */
function foundIn(found: Pick<RowEvidence, 'sentence' | 'confidence'>, w: Words): SafeHtml {
  const { t } = w;
  return html`<details class="found-in">
    <summary class="muted">
      ${t('found.inText')}
      <span title="${t('found.confidenceTitle')}">${t('found.confidence', { confidence: percent(w, found.confidence) })}</span>
    </summary>
    <blockquote>${found.sentence}</blockquote>
  </details>`;
}

/** Papers listed per candidate on the pages (the API lists up to ten). */
const CANDIDATE_PAPERS_SHOWN = 5;

/**
 * The candidates for a row's empty identifier cell: each identifier with its probability, how many of the papers that
 * name the resource wrote it, and the first of those papers as links to their pages (every one is a paper of the store).
 */
function candidateList(candidates: readonly IdentifierCandidate[] | undefined, w: Words): SafeHtml | '' {
  if (!candidates || candidates.length === 0) return '';
  const { t } = w;
  const best = candidates[0];
  return html`<details class="identifier-candidates">
    <summary>
      ${richMessage(
        t,
        'candidates.summary',
        { count: candidates.length, probability: percent(w, best.probability) },
        { identifier: html`<code>${best.identifier}</code>` },
      )}
    </summary>
    <p class="muted">${t('candidates.meaning')}</p>
    <ol>
      ${candidates.map(
        (c) =>
          html`<li>
            <strong><code>${c.identifier}</code></strong
            >${c.vendor ? html` (${c.vendor})` : ''}
            <span class="badge neutral" title="${t('candidates.probabilityTitle')}"
              >${t('candidates.probability', { probability: percent(w, c.probability) })}</span
            >
            <p class="reason">
              ${t('candidates.agreement', {
                agreeing: c.agreeing,
                total: c.total,
                papers: c.paper_count,
                more: c.paper_count > Math.min(c.papers.length, CANDIDATE_PAPERS_SHOWN) ? 'yes' : 'no',
                listed: Math.min(c.papers.length, CANDIDATE_PAPERS_SHOWN),
              })}
            </p>
            <ul class="evidence">
              ${c.papers.slice(0, CANDIDATE_PAPERS_SHOWN).map((doi) => html`<li><a href="/paper?doi=${encodeURIComponent(doi)}">${doi}</a></li>`)}
            </ul>
          </li>`,
      )}
    </ol>
  </details>`;
}

/** The columns the key resources table and its further mentions both begin with: number, type, name, source, identifier. */
function leadingHeadings({ t }: Words): SafeHtml {
  return html`<th scope="col" class="num">${t('table.number')}</th>
    <th scope="col">${t('table.resourceType')}</th>
    <th scope="col">${t('table.resourceName')}</th>
    <th scope="col">${t('table.source')}</th>
    <th scope="col">${t('table.identifier')}</th>`;
}

/**
 * A row's cells under leadingHeadings (the i-th row, numbered from 1), the name followed by `evidence`, the identifier
 * by `candidates`.
 */
function leadingCells(i: number, row: KrtRow, evidence: SafeHtml | '', candidates: SafeHtml | ''): SafeHtml {
  return html`<td class="num">${i + 1}</td>
    <td>${row['RESOURCE TYPE']}</td>
    <th scope="row">${row['RESOURCE NAME']}${evidence}</th>
    <td>${row.SOURCE}</td>
    <td>${row.IDENTIFIER}${candidates}</td>`;
}

/** The annotated table; `caption` says whose table it is. Rows are numbered as the chat counts them (from 1). */
export function resourceTable(rows: readonly AnnotatedRow[], caption: string, w: Words, options: { id?: string } = {}): SafeHtml {
  const { t } = w;
  if (rows.length === 0) return html`<p class="note" id="${options.id ?? 'krt-table'}">${t('table.empty')}</p>`;
  return html`<div class="table-scroll" id="${options.id ?? 'krt-table'}">
    <table class="data krt">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${leadingHeadings(w)}
          <th scope="col">${t('table.newReuse')}</th>
          <th scope="col">${t('table.additional')}</th>
          <th scope="col">${t('table.rridCheck')}</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (a, i) =>
            html`<tr>
              ${leadingCells(i, a.row, a.found ? foundIn(a.found, w) : '', candidateList(a.found?.identifier_candidates, w))}
              <td>${a.row['NEW/REUSE']}</td>
              <td>${a.row['ADDITIONAL INFORMATION']}</td>
              <td class="rrid-cell">${lookupCell(a, w)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/**
 * The rows found in the text that the key resources table leaves out (the API's further_mentions), each with its
 * sentence, confidence and inclusion probability; `promote` draws a mention's button into the chat, when there is one.
 */
export function mentionsTable(
  mentions: readonly WithCandidates<FurtherMention>[],
  caption: string,
  w: Words,
  promote?: (mention: WithCandidates<FurtherMention>) => SafeHtml,
): SafeHtml {
  const { t } = w;
  return html`<div class="table-scroll" id="further-mentions">
    <table class="data krt mentions">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${leadingHeadings(w)}
          <th scope="col">${t('table.additional')}</th>
          <th scope="col" class="num" title="${t('mentions.inclusionTitle')}">${t('mentions.inclusion')}</th>
          ${promote ? html`<th scope="col"><span class="visually-hidden">${t('mentions.promote')}</span></th>` : ''}
        </tr>
      </thead>
      <tbody>
        ${mentions.map(
          (m, i) =>
            html`<tr>
              ${leadingCells(i, m.row, foundIn(m, w), candidateList(m.identifier_candidates, w))}
              <td>${m.row['ADDITIONAL INFORMATION']}</td>
              <td class="num">${m.inclusion_probability === null ? '' : percent(w, m.inclusion_probability)}</td>
              ${promote ? html`<td>${promote(m)}</td>` : ''}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Download links to the API's export routes (an extraction session's or a chat session's id). */
/**
 * A further mention's button: POST /chat/start with `fields` (the table to copy and which mention to add), named by
 * the words it shows and then the mention (WCAG 2.5.3: the accessible name begins with the visible label).
 */
export function promoteForm(fields: Readonly<Record<string, string>>, name: string, { t }: Words): SafeHtml {
  return html`<form class="chat-start" method="post" action="/chat/start">
    ${joinHtml(Object.entries(fields).map(([key, value]) => html`<input type="hidden" name="${key}" value="${value}" />`))}
    <button type="submit" class="secondary" aria-label="${t('mentions.promoteLabel', { name })}">${t('mentions.promote')}</button>
  </form>`;
}

export function exportButtons(sessionId: string, w: Words): SafeHtml {
  const { t } = w;
  const base = `/api/export/${encodeURIComponent(sessionId)}`;
  return html`<ul class="exports" aria-label="${t('export.label')}">
    <li><a class="button secondary" href="${base}/json/" download>${t('export.json')}</a></li>
    <li><a class="button secondary" href="${base}/csv/" download>${t('export.csv')}</a></li>
    <li><a class="button secondary" href="${base}/excel/" download>${t('export.excel')}</a></li>
  </ul>`;
}

/**
 * How many rows had each outcome, for the line above the table, and what its numbers are: a text-built table shows
 * three probabilities from three models, which the line tells apart.
 */
export function rowSummary(rows: readonly AnnotatedRow[], w: Words): SafeHtml {
  const count = (f: (a: AnnotatedRow) => boolean) => rows.filter(f).length;
  const statuses = rows.flatMap((a) => a.validations.map((v) => v.status));
  return html`<p class="muted">
      ${w.t('summary.rridCheck', {
        valid: statuses.filter((s) => s === 'valid').length,
        unverified: statuses.filter((s) => s === 'unverified').length,
        invalid: statuses.filter((s) => s === 'invalid').length,
        suggested: count((a) => a.lookup.kind === 'suggested'),
        abstained: count((a) => a.lookup.kind === 'abstained'),
      })}
      ${w.t('summary.rridMeaning', { threshold: percent(w, ABSTAIN_BELOW) })}
    </p>
    ${rows.some((a) => a.found) ? html`<p class="muted">${w.t('summary.numbersMeaning')}</p>` : ''}`;
}
