// The shape of a page route: its query and path parameters declared with the API's TypeBox schemas (validated by the
// app's own validator, so a page refuses what the API refuses, with the API's message), then `read` (the data, through
// the functions the API calls) and `render` (the template, no I/O). A problem of the request, found by the validation
// or by `read`, is drawn by `refused` when the page has one (its form redrawn with the message) or by the shared error
// page; either way in the layout with its status, never JSON and never a 500. A page whose form carries what does not
// belong in a URL (an income) is also answered to a POST of that form (`posted`), never cached.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { validationMessage } from '../http/errors.ts';
import { acceptFormBodies } from './form-bodies.ts';
import type { AjvError } from '../http/errors.ts';
import type { ServiceApp } from '../service.ts';
import type { ChartSpec } from './charts.ts';
import type { SafeHtml } from './html.ts';
import type { PageKit } from './index.ts';
import type { PageLocale } from './locale.ts';
import { errorPage, pageProblem, sendPage } from './replies.ts';
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

/** A parameter the schemas refused: its name, the schema keyword it failed and the value as written (absent: missing). */
export interface ParameterRefusal {
  name: string;
  keyword: string;
  value: string | undefined;
  /** The name was written more than once (its first value is then not what the schema refused). */
  repeated: boolean;
}

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

/** The parameter a failed validation names, with the value the client wrote for it. */
function refusalOf(request: FastifyRequest, error: AjvError, context: string | undefined): ParameterRefusal {
  const name = String(error.keyword === 'required' ? (error.params.missingProperty ?? '') : (error.instancePath ?? '')).replace(/^\//, '');
  const values = (context === 'params' ? request.params : request.query) as Record<string, unknown> | undefined;
  const value = values?.[name];
  if (Array.isArray(value)) return { name, keyword: error.keyword, value: String(value[0]), repeated: true };
  return { name, keyword: error.keyword, value: value === undefined ? undefined : String(value), repeated: false };
}

/** The page's words for a failed validation when it has some, else the API's (the same its JSON error would carry). */
export function validationProblem(
  request: FastifyRequest,
  explain: (refusal: ParameterRefusal) => string | undefined = () => undefined,
): PageProblem | null {
  const error = request.validationError as (Error & { validation?: AjvError[]; validationContext?: string }) | undefined;
  if (!error) return null;
  const first = error.validation?.[0];
  const own = first ? explain(refusalOf(request, first, error.validationContext)) : undefined;
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
  app.get(
    page.url,
    { schema, attachValidation: true, onRequest: blankMeansAbsent, config: { responseCache: page.cache ?? true } },
    answer('GET'),
  );
  if (!page.posted) return;
  acceptFormBodies(app);
  app.post(page.url, { schema, attachValidation: true, onRequest: blankMeansAbsent, config: { responseCache: false } }, answer('POST'));
}

/** One request to a page: its problem drawn (refused or the error page), or its data read and rendered. */
async function answerPage<QS extends TSchema | undefined, PS extends TSchema | undefined, D>(
  kit: PageKit,
  page: PageDefinition<QS, PS, D>,
  request: FastifyRequest,
  method: 'GET' | 'POST',
): Promise<PageReply> {
  const raw: RawPageInput = { request, form: formOf(request), locale: kit.locale(request) };
  const refuse = async (problem: PageProblem): Promise<PageResult> => {
    const drawn = page.refused && problem.status === 400 ? await page.refused(problem, raw) : errorPage(kit, raw.locale, problem);
    return { ...drawn, status: drawn.status ?? problem.status };
  };
  const invalid = validationProblem(request, (refusal) => page.explain?.(refusal, raw.locale));
  if (invalid) return refuse(invalid);
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
    const problem = pageProblem(error);
    if (!problem) throw error;
    return refuse(problem);
  }
  return page.render(data, input);
}
