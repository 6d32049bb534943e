// The shape of a page route: its query and path parameters declared with the API's TypeBox schemas (validated by the
// app's own validator, so a page refuses what the API refuses, with the API's message), then `read` (the data, through
// the functions the API calls) and `render` (the template, no I/O). A problem of the request, found by the validation
// or by `read`, is drawn by `refused` when the page has one (its form redrawn with the message) or by the shared error
// page; either way in the layout with its status, never JSON and never a 500.
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { validationMessage } from '../http/errors.ts';
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
  /** A chart cached under a key made of this page's validated parameters, language and data version (kit.chart). */
  chart(id: string, build: () => ChartSpec): SafeHtml;
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

/** The API's message for a failed validation (the same words its JSON error would carry). */
export function validationProblem(request: FastifyRequest): PageProblem | null {
  const error = request.validationError as (Error & { validation?: AjvError[]; validationContext?: string }) | undefined;
  if (!error) return null;
  return { status: 400, message: validationMessage(error.validation ?? [], error.validationContext).message, headers: {} };
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

/** Registers a GET page: validation by the schemas, then read, then render, each problem drawn as a page. */
export function definePage<QS extends TSchema | undefined = undefined, PS extends TSchema | undefined = undefined, D = unknown>(
  app: ServiceApp,
  kit: PageKit,
  page: PageDefinition<QS, PS, D>,
): void {
  const schema = { ...(page.query ? { querystring: page.query } : {}), ...(page.params ? { params: page.params } : {}) };
  app.get(
    page.url,
    { schema, attachValidation: true, onRequest: blankMeansAbsent, config: { responseCache: page.cache ?? true } },
    async (request, reply) =>
      sendPage(kit, request, reply, async () => {
        const raw: RawPageInput = { request, form: formOf(request), locale: kit.locale(request) };
        const refuse = async (problem: PageProblem): Promise<PageResult> => {
          const drawn = page.refused && problem.status === 400 ? await page.refused(problem, raw) : errorPage(kit, raw.locale, problem);
          return { ...drawn, status: drawn.status ?? problem.status };
        };
        const invalid = validationProblem(request);
        if (invalid) return refuse(invalid);
        const dataVersion = await kit.dataVersion();
        const query = request.query as Parsed<QS>;
        const params = request.params as Parsed<PS>;
        const input: PageInput<Parsed<QS>, Parsed<PS>> = {
          ...raw,
          query,
          params,
          dataVersion,
          chart: (id, build) =>
            kit.chart(
              {
                chart: id,
                language: raw.locale.language,
                dataVersion,
                inputs: { query: declared(query, page.query), params: declared(params, page.params) },
              },
              build,
            ),
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
      }),
  );
}
