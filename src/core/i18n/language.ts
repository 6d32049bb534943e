// The language of an answer: `?lang=` first, then the Accept-Language header (by its q-values), then the
// service's first language. C and D speak English and French (their sources are bilingual); A, B and E English.
// Routes and pages call this one function, so the API and the pages never disagree on the language of a request.

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The primary subtag of each Accept-Language range, best first (ties keep the header's order); `*` and q=0 dropped. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranges: Array<{ tag: string; q: number; index: number }> = [];
  header.split(',').forEach((part, index) => {
    const [range, ...params] = part.trim().split(';');
    const tag = range?.trim().toLowerCase().split('-')[0] ?? '';
    if (tag === '' || tag === '*') return;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key?.trim() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    if (q > 0) ranges.push({ tag, q, index });
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map((r) => r.tag);
}

/**
 * The language to answer in. An explicit `lang` the service speaks wins; an unknown `lang` is ignored here (the
 * route's schema decides whether it is an error); otherwise the best Accept-Language the service speaks; else its first.
 */
export function negotiateLanguage(lang: string | undefined, acceptLanguage: string | undefined, supported: readonly Language[]): Language {
  const fallback = supported[0] ?? 'en';
  if (lang !== undefined) {
    const wanted = lang.trim().toLowerCase();
    if ((supported as readonly string[]).includes(wanted)) return wanted as Language;
  }
  for (const tag of acceptedLanguages(acceptLanguage)) {
    if ((supported as readonly string[]).includes(tag)) return tag as Language;
  }
  return fallback;
}
