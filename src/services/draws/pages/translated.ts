// The forecasting code's texts about its models and rules (English, as /api/models/ serves them) in a page's language:
// the translation keyed by the text's identifier (messages/translations-fr.ts), used only while the English it was made from
// is the English served now; otherwise the English itself, marked lang="en", so a page never describes in French a
// method that has since changed.
import { createHash } from 'node:crypto';
import type { Language } from '../../../core/i18n/language.ts';
import { html, untranslated } from '../../../core/pages/index.ts';
import type { PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { TRANSLATIONS_FR, PARAMETER_NAMES_FR } from '../messages/translations-fr.ts';

/** First 12 hex digits of the SHA-256 of a text: what a translation records of the English it translates. */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** The text in `language`, or undefined when there is no translation of this English (English pages: the English). */
export function translatedIn(key: string, english: string, language: Language): string | undefined {
  if (language === 'en') return english;
  const translation = TRANSLATIONS_FR[key];
  return translation !== undefined && translation.from === fingerprint(english) ? translation.fr : undefined;
}

/** A method text as page content: translated, or the English marked as English. */
export function translated(key: string, english: string, loc: PageLocale): SafeHtml {
  const text = translatedIn(key, english, loc.language);
  return text === undefined ? html`<span${untranslated(loc)}>${english}</span>` : html`${text}`;
}

/** A parameter's name as the page writes it (the API's name where the language has none). */
export function parameterName(name: string, language: Language): string {
  return language === 'fr' ? (PARAMETER_NAMES_FR[name] ?? name) : name;
}
