// The optional language-model extractor: an OpenAI-compatible chat-completions API, configured only from the
// environment (PDI_KRT_LLM_BASE_URL, PDI_KRT_LLM_MODEL, PDI_KRT_LLM_API_KEY, PDI_KRT_LLM_TIMEOUT_MS), never from a
// request. Without it the service is complete; with it, `extract` and POST /api/krt/extract/ also record an
// `llm` session per paper. Every failure (HTTP error, timeout, a reply that is not the requested JSON) is thrown
// as LlmError, and the caller records it on the session as status `failed` with the message: never an empty
// "completed" table.
//
// Guard against invented identifiers: an RRID or catalog number in the model's IDENTIFIER that does not occur in
// the article's text is removed from the row (and counted in `dropped`).
import { parseJats, textOf, findAll, findFirst } from './jats/index.ts';
import type { XmlElement } from './jats/index.ts';
import {
  formatIdentifier,
  isNewSource,
  isResourceType,
  makeRow,
  normalizeIdentifier,
  parseIdentifierText,
  resourceTypeFromText,
} from './extract/index.ts';
import type { IdentifierPart } from './extract/index.ts';
import type { KrtRow } from './extract/index.ts';

export const LLM_PROVIDER = 'llm';

export interface LlmConfig {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  /** Most characters of article text sent per request. */
  maxChars: number;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

/** The provider's settings, or null when it is not configured (base URL and model are both required). */
export function llmConfigFrom(env: NodeJS.ProcessEnv): LlmConfig | null {
  const baseUrl = env.PDI_KRT_LLM_BASE_URL?.trim();
  const model = env.PDI_KRT_LLM_MODEL?.trim();
  if (!baseUrl || !model) return null;
  const timeout = Number(env.PDI_KRT_LLM_TIMEOUT_MS ?? 120_000);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    apiKey: env.PDI_KRT_LLM_API_KEY?.trim() || null,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000,
    maxChars: 60_000,
  };
}

const SYSTEM_PROMPT = [
  'You build the key resources table (KRT) of a research article from its text.',
  'Reply with one JSON object and nothing else: {"rows": [ ... ]}. Each row has exactly these keys:',
  '"RESOURCE TYPE" (one of: Dataset; Software/code; Protocol; Antibody; Bacterial strain; Viral vector; Biological sample;',
  'Chemical, peptide, or recombinant protein; Critical commercial assay; Experimental model: Cell line;',
  'Experimental model: Organism/strain; Oligonucleotide; Recombinant DNA; Other),',
  '"RESOURCE NAME", "SOURCE" (vendor or origin; "This study" for resources made in the work),',
  '"IDENTIFIER" (catalog numbers and RRIDs exactly as written in the text, e.g. "Cat# ab290; RRID:AB_303395"; empty if none),',
  '"NEW/REUSE" ("new" or "reuse"), "ADDITIONAL INFORMATION" (may be empty).',
  'Use only what the text states. Never invent an identifier.',
].join(' ');

/** The prose of an article a model should read: title, abstract, body and floats, without references. */
function articleTextForModel(xml: string, maxChars: number): { title: string; text: string } {
  const { root, metadata } = parseJats(xml);
  const parts: string[] = [];
  const skip = new Set(['ref-list', 'ack', 'fn-group']);
  const body = findFirst(root, (el) => el.name === 'body');
  const floats = findAll(root, (el) => el.name === 'floats-group');
  const back = findFirst(root, (el) => el.name === 'back');
  if (metadata.abstract) parts.push(metadata.abstract);
  for (const el of [body, ...floats, back].filter((e): e is XmlElement => e !== undefined)) parts.push(textOf(el, { skip }));
  const text = parts.join('\n\n');
  return { title: metadata.title, text: text.length > maxChars ? text.slice(0, maxChars) : text };
}

function squash(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Whether `text` writes the identifier as it is (letter case aside), not as part of a longer one. */
function writesVerbatim(text: string, identifier: string): boolean {
  const escaped = identifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, 'i').test(text);
}

/** Rows from the model's reply, checked against the vocabularies and the article text. */
export function rowsFromReply(content: string, articleText: string): { rows: KrtRow[]; dropped: number } {
  const json = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new LlmError(`the model's reply is not JSON (${json.slice(0, 80).replace(/\s+/g, ' ')}…)`);
  }
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as Record<string, unknown> | null)?.rows ?? (parsed as Record<string, unknown> | null)?.krt_data);
  if (!Array.isArray(list)) throw new LlmError('the model\'s reply has no "rows" array');
  const haystack = squash(articleText);
  const rows: KrtRow[] = [];
  let dropped = 0;
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const r = item as Record<string, unknown>;
    const text = (key: string) => (typeof r[key] === 'string' ? (r[key] as string).replace(/\s+/g, ' ').trim() : '');
    const name = text('RESOURCE NAME');
    if (!name) continue;
    const typeText = text('RESOURCE TYPE');
    const type = isResourceType(typeText) ? typeText : (resourceTypeFromText(typeText) ?? 'Other');
    const source = text('SOURCE');
    const parts = parseIdentifierText(normalizeIdentifier(text('IDENTIFIER')));
    const present = (value: string) => {
      const written = squash(value.replace(/^(AB|SCR|CVCL)_/, '$1'));
      return written.length > 0 && haystack.includes(written);
    };
    const kept = parts.flatMap((p): IdentifierPart[] => {
      // A broken RRID becomes the RRID only when the article writes that form (identifiers are facts).
      if (p.kind === 'unresolved-rrid' && p.repair && writesVerbatim(articleText, p.repair))
        return [{ kind: 'rrid', value: p.repair, label: p.label }];
      if (p.kind !== 'rrid' && p.kind !== 'unresolved-rrid' && p.kind !== 'catalog' && p.kind !== 'accession') return [p];
      if (present(p.value)) return [p];
      dropped++;
      return [];
    });
    const newReuse = /^new$/i.test(text('NEW/REUSE')) || isNewSource(source) ? 'new' : 'reuse';
    rows.push(
      makeRow({
        'RESOURCE TYPE': type,
        'RESOURCE NAME': name,
        SOURCE: source,
        IDENTIFIER: formatIdentifier(kept),
        'NEW/REUSE': newReuse,
        'ADDITIONAL INFORMATION': text('ADDITIONAL INFORMATION'),
      }),
    );
  }
  return { rows, dropped };
}

export interface LlmExtraction {
  rows: KrtRow[];
  dropped: number;
  seconds: number;
}

/** Asks the configured model for the table of one article. Throws LlmError on any failure. */
export async function extractWithLlm(config: LlmConfig, xml: string, fetchImpl: typeof fetch = fetch): Promise<LlmExtraction> {
  const started = performance.now();
  const article = articleTextForModel(xml, config.maxChars);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let response: Response;
  try {
    response = await fetchImpl(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Title: ${article.title}\n\n${article.text}` },
        ],
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const e = error as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new LlmError(`no answer within ${config.timeoutMs} ms`);
    throw new LlmError(`request failed: ${(e as { cause?: Error }).cause?.message ?? e.message}`);
  }
  const body = await response.text().catch(() => '');
  if (!response.ok) {
    // The provider's own message when it sends one (OpenAI-style {"error":{"message"}}), kept short.
    let detail = body.slice(0, 200);
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string } | string };
      detail = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? detail);
    } catch {
      /* not JSON */
    }
    throw new LlmError(`HTTP ${response.status}${detail ? `: ${detail.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`);
  }
  let content: unknown;
  try {
    content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    throw new LlmError("the provider's answer is not JSON");
  }
  if (typeof content !== 'string' || !content.trim()) throw new LlmError("the provider's answer has no message content");
  const { rows, dropped } = rowsFromReply(content, `${article.title}\n${article.text}`);
  return { rows, dropped, seconds: (performance.now() - started) / 1000 };
}
