// A category's status reason in the page's language. The forecasting code stores it as an English sentence built from
// the category's figures (forecast/forecast-panel.ts: statusReason); a page reads those figures back from the
// sentence's known forms and says them through the catalogue, with dates and numbers by locale. A sentence of another
// form is shown as it is, marked as English.
import { html, untranslated } from '../../../core/pages/index.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import type { Words } from '../messages/index.ts';

const DATE = '(\\d{4}-\\d{2}-\\d{2})';
const RESUMED = ` since it resumed on ${DATE} after a pause of (\\d+) days`;
const RANKS = `(?:; only (\\d+) of (\\d+) ranks fall within a year of ${DATE})?`;
const FORMS = {
  none: new RegExp(`^no draws on or before ${DATE}$`),
  dormant: new RegExp(
    `^dormant since ${DATE}: last draw ${DATE}, (\\d+) days before ${DATE}; dormant after ([\\d.]+) days without a draw$`,
  ),
  // "draw(s)": the sentence stored by earlier versions, read back until the forecasts are next computed.
  young: new RegExp(`^(\\d+) (?:draws?|draw\\(s\\))(?:${RESUMED})?: young, forecast by the pooled model with wider intervals${RANKS}$`),
  established: new RegExp(`^(\\d+) draws(?: \\((\\d+)${RESUMED}\\))?; last ${DATE}${RANKS}$`),
};

/** The stored reason in the page's language (without a final full stop); undefined for a sentence of another form. */
export function statusReasonIn(reason: string, w: Words): string | undefined {
  const { t, loc } = w;
  const date = (iso: string) => loc.date(iso);
  const resumed = (on: string | undefined, pause: string | undefined) =>
    on !== undefined && pause !== undefined ? t('reason.resumed', { date: date(on), days: Number(pause) }) : undefined;
  const ranks = (count: string | undefined, horizons: string | undefined, asOf: string | undefined) =>
    count !== undefined && horizons !== undefined && asOf !== undefined
      ? t('reason.ranks', { count: Number(count), horizons: Number(horizons), date: date(asOf) })
      : '';
  let m = FORMS.none.exec(reason);
  if (m) return t('reason.none', { date: date(m[1]) });
  m = FORMS.dormant.exec(reason);
  if (m) {
    return t('reason.dormant', { since: date(m[1]), last: date(m[2]), days: Number(m[3]), asOf: date(m[4]), after: Number(m[5]) });
  }
  m = FORMS.young.exec(reason);
  if (m) {
    const since = resumed(m[2], m[3]);
    return t(since ? 'reason.youngResumed' : 'reason.young', { draws: Number(m[1]), resumed: since }) + ranks(m[4], m[5], m[6]);
  }
  m = FORMS.established.exec(reason);
  if (m) {
    const since = resumed(m[3], m[4]);
    const text = t(since ? 'reason.establishedResumed' : 'reason.established', {
      draws: Number(m[1]),
      regime: Number(m[2] ?? m[1]),
      resumed: since,
      date: date(m[5]),
    });
    return text + ranks(m[6], m[7], m[8]);
  }
  return undefined;
}

/** The reason as page content: in the page's language, or as stored, marked as English. */
export function statusReasonText(reason: string, w: Words): SafeHtml {
  const text = statusReasonIn(reason, w);
  return text === undefined ? html`<span${untranslated(w.loc)}>${reason}</span>` : html`${text}`;
}
