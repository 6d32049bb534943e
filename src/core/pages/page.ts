// The shape of a page route: its query and path parameters declared with the API's TypeBox schemas (validated by the
// app's own validator, so a page refuses what the API refuses: with the API's message in English, with the page's or
// the kernel's words in another language, refusals.ts), then `read` (the data, through the functions the API calls)
// and `render` (the template, no I/O). A problem of the request, found by the validation, by the kernel's own checks
// before it or by `read`, is drawn by `refused` when the page has one (its form redrawn with the message) or by the
// shared error page; either way in the layout with its status, never JSON and never a 500. A page whose form carries
// what does not belong in a URL (an income) is also answered to a POST of that form (`posted`), never cached.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { validationMessage } from '../http/errors.ts';
import { acceptFormBodies } from './form-bodies.ts';
import type { AjvError } from '../http/errors.ts';
import { kernelWords, refusalOf } from './refusals.ts';
import type { ParameterRefusal } from './refusals.ts';
import type { ServiceApp } from '../service.ts';
import type { ChartSpec } from './charts.ts';
import type { SafeHtml } from './html.ts';
import type { PageKit } from './index.ts';
import type { PageLocale } from './locale.ts';
import { errorPage, sendPage, sendResult, wordedProblem } from './replies.ts';
import type { PageProblem, PageReply, PageResult } from './replies.ts';

export type Parsed<S> = S extends TSchema ? Static<S> : Record<string, never>;

/** What a page's `refused` gets: the request as the client wrote it, since its parameters could not be used. */
export interface RawPageInput {
  request: FastifyRequest;
  /** The query as written (the first value of each name): what a redrawn form shows. */
  form: Readonly<Record<string, string>>;
  locale: PageLocale;
}

/** What `read` and `render` get: the validated parameters (defaults filled in) and the request's language. */
export interface PageInput<Q, P> extends RawPageInput {
  query: Q;
  params: P;
  dataVersion: string;
  /**
   * A chart cached under a key made of this page's validated parameters, language and data version (kit.chart), and
   * of `inputs`: what else the chart is drawn from that the query does not name (a date the page reads, say).
   */
  chart(id: string, build: () => ChartSpec, inputs?: Readonly<Record<string, unknown>>): SafeHtml;
  /** The posted form (the first value of each name), on a POST of a `posted` page; absent on a GET. */
  posted?: Readonly<Record<string, string>>;
}

export type { ParameterRefusal };

export interface PageDefinition<QS extends TSchema | undefined, PS extends TSchema | undefined, D> {
  url: string;
  /** The query's schema: the API route's own (or built from its parameters), so both accept the same values. */
  query?: QS;
  params?: PS;
  /** Cached by the kernel's response cache (keyed by the URL and the data version); default true. */
  cache?: boolean;
  read(input: PageInput<Parsed<QS>, Parsed<PS>>): Promise<D>;
  /** The page, or a redirect (a look-up that found the page it names). */
  render(data: D, input: PageInput<Parsed<QS>, Parsed<PS>>): PageReply;
  /**
   * The page's own words, in the request's language, for a parameter its schemas refused (a bilingual service's
   * catalogue); absent, or undefined for a parameter, the API's message.
   */
  explain?(refusal: ParameterRefusal, locale: PageLocale): string | undefined;
  /** Also answered to a POST of the page's form (a browser's urlencoded body, in `input.posted`), never cached. */
  posted?: boolean;
  /** The page drawn around a 400 (the form redrawn beside the message); absent, and for other statuses: the shared error page. */
  refused?(problem: PageProblem, input: RawPageInput): PageResult | Promise<PageResult>;
}

/** The query as the client wrote it: the first value of each name (a form field written twice shows its first). */
function formOf(request: FastifyRequest): Record<string, string> {
  const at = request.url.indexOf('?');
  const form: Record<string, string> = {};
  if (at < 0) return form;
  for (const [name, value] of new URLSearchParams(request.url.slice(at + 1))) if (!(name in form)) form[name] = value;
  return form;
}

/**
 * The words for a failed validation: the page's own when it has some, else the kernel's in the page's language (none in
 * English), else the API's (the same its JSON error would carry).
 */
export function validationProblem(
  request: FastifyRequest,
  explain: (refusal: ParameterRefusal) => string | undefined = () => undefined,
): PageProblem | null {
  const error = request.validationError as (Error & { validation?: AjvError[]; validationContext?: string }) | undefined;
  if (!error) return null;
  const refusal = refusalOf(request, error);
  const own = refusal ? explain(refusal) : undefined;
  return { status: 400, message: own ?? validationMessage(error.validation ?? [], error.validationContext).message, headers: {} };
}

/** A posted form's values, the first of each name (the body parser of forms.ts gives lists for repeated names). */
function postedOf(request: FastifyRequest): Record<string, string> {
  const posted: Record<string, string> = {};
  const body = request.body;
  if (body === null || typeof body !== 'object') return posted;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? (value[0] as unknown) : value;
    if (typeof first === 'string') posted[name] = first;
  }
  return posted;
}

/** The parameters a schema declares (a name it does not know, say `utm_source`, cannot change what the page draws). */
function declared(values: unknown, schema: TSchema | undefined): Record<string, unknown> {
  const names = Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const all = (values ?? {}) as Record<string, unknown>;
  return Object.fromEntries(names.filter((name) => all[name] !== undefined).map((name) => [name, all[name]]));
}

/**
 * A submitted GET form sends every field, the empty ones as `name=`: on a page that means "not given", as an absent
 * parameter does (the API's schemas would read an empty number as 0). Run first, before the kernel's own checks.
 */
async function blankMeansAbsent(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  for (const [name, value] of Object.entries(query)) if (value === '') delete query[name];
}

/** Registers a GET page (and the POST of its form, when `posted`): validation by the schemas, then read, then render, each problem drawn as a page. */
export function definePage<QS extends TSchema | undefined = undefined, PS extends TSchema | undefined = undefined, D = unknown>(
  app: ServiceApp,
  kit: PageKit,
  page: PageDefinition<QS, PS, D>,
): void {
  const schema = { ...(page.query ? { querystring: page.query } : {}), ...(page.params ? { params: page.params } : {}) };
  const answer = (method: 'GET' | 'POST') => async (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(kit, request, reply, () => answerPage(kit, page, request, method));
  // What the kernel's checks refuse before the handler runs (a number not written as a plain decimal, unusable text) is
  // drawn as the page's own refusal, in its words; any other error goes on to the scope's handler (pageErrors).
  const errorHandler = async (error: Error, request: FastifyRequest, reply: FastifyReply) => {
    const raw = rawInput(kit, request);
    const problem = wordedProblem(error, request, raw.locale, (refusal) => page.explain?.(refusal, raw.locale));
    if (!problem || !refusalOf(request, error)) throw error;
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    return sendResult(kit, request, reply, await refusedPage(kit, page, raw, problem));
  };
  const options = { schema, attachValidation: true, onRequest: blankMeansAbsent, errorHandler };
  app.get(page.url, { ...options, config: { responseCache: page.cache ?? true } }, answer('GET'));
  if (!page.posted) return;
  acceptFormBodies(app);
  app.post(page.url, { ...options, config: { responseCache: false } }, answer('POST'));
}

function rawInput(kit: PageKit, request: FastifyRequest): RawPageInput {
  return { request, form: formOf(request), locale: kit.locale(request) };
}

/** A problem drawn as a page: by the page's `refused` for a 400 when it has one, else the shared error page. */
async function refusedPage<QS extends TSchema | undefined, PS extends TSchema | undefined, D>(
  kit: PageKit,
  page: PageDefinition<QS, PS, D>,
  raw: RawPageInput,
  problem: PageProblem,
): Promise<PageResult> {
  const drawn = page.refused && problem.status === 400 ? await page.refused(problem, raw) : errorPage(kit, raw.locale, problem);
  return { ...drawn, status: drawn.status ?? problem.status };
}

/** One request to a page: its problem drawn (refused or the error page), or its data read and rendered. */
async function answerPage<QS extends TSchema | undefined, PS extends TSchema | undefined, D>(
  kit: PageKit,
  page: PageDefinition<QS, PS, D>,
  request: FastifyRequest,
  method: 'GET' | 'POST',
): Promise<PageReply> {
  const raw = rawInput(kit, request);
  const explain = (refusal: ParameterRefusal) => page.explain?.(refusal, raw.locale) ?? kernelWords(refusal, raw.locale);
  const invalid = validationProblem(request, explain);
  if (invalid) return refusedPage(kit, page, raw, invalid);
  const dataVersion = await kit.dataVersion();
  const query = request.query as Parsed<QS>;
  const params = request.params as Parsed<PS>;
  const input: PageInput<Parsed<QS>, Parsed<PS>> = {
    ...raw,
    query,
    params,
    dataVersion,
    chart: (id, build, inputs = {}) =>
      kit.chart(
        {
          chart: id,
          language: raw.locale.language,
          dataVersion,
          inputs: { query: declared(query, page.query), params: declared(params, page.params), read: inputs },
        },
        build,
      ),
    ...(method === 'POST' ? { posted: postedOf(request) } : {}),
  };
  let data: D;
  try {
    data = await page.read(input);
  } catch (error) {
    const problem = wordedProblem(error, request, raw.locale, (refusal) => page.explain?.(refusal, raw.locale));
    if (!problem) throw error;
    return refusedPage(kit, page, raw, problem);
  }
  return page.render(data, input);
}
