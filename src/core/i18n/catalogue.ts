// Message catalogues: ICU MessageFormat (plurals, numbers, selects) through FormatJS's intl-messageformat. A catalogue
// holds one message table per language with the same keys (the French table is typed by the English one's keys, and
// catalogue.test.ts checks their placeholders agree); each message is compiled once, on first use, per language.
import { IntlMessageFormat } from 'intl-messageformat';
import type { Formatters } from 'intl-messageformat';
import type { Language } from './language.ts';
import { localeOf, numberFormatIn } from './format.ts';

export type MessageTable<K extends string> = Readonly<Record<K, string>>;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

/** A function from a key (and its values) to text in one language. */
export type Translate<K extends string> = (key: K, values?: MessageValues) => string;

function cached<T>(made: Map<string, T>, args: unknown[], make: () => T): T {
  const id = JSON.stringify(args);
  let value = made.get(id);
  if (value === undefined) {
    value = make();
    made.set(id, value);
  }
  return value;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

/** What the messages of a language format with: numbers as format.ts writes them; every message shares the formats. */
function formattersOf(language: Language): Formatters {
  return {
    // formatjs's option type adds values of newer Intl drafts; the options a message's skeleton makes are Intl's own
    getNumberFormat: (_locale, options) => numberFormatIn(language, (options ?? {}) as Intl.NumberFormatOptions),
    getDateTimeFormat: (...args) => cached(dateTimeFormats, args, () => new Intl.DateTimeFormat(...args)),
    getPluralRules: (...args) => cached(pluralRules, args, () => new Intl.PluralRules(...args)),
  };
}

const formatters: Record<Language, Formatters> = { en: formattersOf('en'), fr: formattersOf('fr') };

export class Catalogue<K extends string> {
  readonly tables: Readonly<Record<Language, MessageTable<K>>>;
  private readonly compiled = new Map<string, IntlMessageFormat>();

  constructor(tables: Record<Language, MessageTable<K>>) {
    this.tables = tables;
  }

  format(language: Language, key: K, values?: MessageValues): string {
    const id = `${language}\u0000${key}`;
    let message = this.compiled.get(id);
    if (message === undefined) {
      message = new IntlMessageFormat(this.tables[language][key], localeOf(language), undefined, {
        ignoreTag: true,
        formatters: formatters[language],
      });
      this.compiled.set(id, message);
    }
    const text = message.format(values as Record<string, string | number | Date>);
    return typeof text === 'string' ? text : String(text);
  }

  /** The translator of one language. */
  in(language: Language): Translate<K> {
    return (key, values) => this.format(language, key, values);
  }
}

/** The argument names a message uses ({name}, {n, plural, …}, nested ones too), sorted: the two languages must agree. */
export function placeholdersOf(message: string, language: Language): string[] {
  const names = new Set<string>();
  const walk = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes as Array<Record<string, unknown>>) {
      if (typeof node.value === 'string' && node.type !== 0 && node.type !== 7) names.add(node.value);
      const options = node.options as Record<string, { value: unknown }> | undefined;
      if (options) for (const option of Object.values(options)) walk(option.value);
      if (Array.isArray(node.children)) walk(node.children);
    }
  };
  walk(new IntlMessageFormat(message, localeOf(language), undefined, { ignoreTag: true }).getAst());
  return [...names].sort();
}
