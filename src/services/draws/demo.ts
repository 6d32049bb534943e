// Generated Express Entry history for trying the service offline: a rounds feed in IRCC's own JSON format
// (every value a string, newest first) and its French twin (the same keys and rounds, its texts in French, as
// ee_rounds_123_fr.json is beside ee_rounds_123_en.json), imported through the same importers as the real feeds. The file
// carries a top-level "pdiGenerated" marker, so the data is labelled "demo" wherever a body has room
// (data_source.kind), and its rounds have no canada.ca links. The categories follow the real feed's eras
// (program rounds first, category-based rounds later, names with version suffixes) and each category's
// cut-off is a mean-reverting walk around a level of its kind; nothing here is a real figure.
import fs from 'node:fs/promises';
import path from 'node:path';
import { formatDate, formatNumberIn } from '../../core/i18n/format.ts';
import { Random } from '../../core/random.ts';
import { dayNumber, isoFromDayNumber } from './feed/ircc-dates.ts';
import { POOL_BANDS } from './feed/pool-distribution.ts';
import { weekday } from './forecast/draw-dates.ts';
import { GENERATED_MARKER } from './import.ts';

export const DEFAULT_DEMO_ROUNDS = 300;
export const DEFAULT_DEMO_SEED = 20251217;
const DEMO_FILE_NAME = 'ee_rounds_123_en.generated.json';
const DEMO_FRENCH_FILE_NAME = 'ee_rounds_123_fr.generated.json';

interface Family {
  /** drawName as the feed spells it. */
  name: string;
  /** drawName as the French feed spells it. */
  nameFr: string;
  programs: string;
  programsFr: string;
  /** Share of the timeline (0 oldest … 1 newest) during which the family draws. */
  from: number;
  to: number;
  weight: number;
  crsLevel: number;
  crsSd: number;
  invitationLevel: number;
  invitationSd: number;
}

const ALL_PROGRAMS =
  'Federal Skilled Worker Program, Canadian Experience Class, Federal Skilled Trades Program and Provincial Nominee Program';
const FEDERAL_PROGRAMS = 'Federal Skilled Worker Program, Canadian Experience Class and Federal Skilled Trades Program';
const ALL_PROGRAMS_FR =
  'Programme des travailleurs qualifiés (fédéral), Catégorie de l’expérience canadienne, Programme des travailleurs de métiers spécialisés (fédéral) et Programme des candidats des provinces';
const FEDERAL_PROGRAMS_FR =
  'Programme des travailleurs qualifiés (fédéral), Catégorie de l’expérience canadienne et Programme des travailleurs de métiers spécialisés (fédéral)';

const FAMILIES: readonly Family[] = [
  {
    name: 'No Program Specified',
    nameFr: 'Aucun programme spécifié',
    programs: ALL_PROGRAMS,
    programsFr: ALL_PROGRAMS_FR,
    from: 0,
    to: 0.62,
    weight: 6,
    crsLevel: 462,
    crsSd: 9,
    invitationLevel: 3300,
    invitationSd: 900,
  },
  {
    name: 'Federal Skilled Trades',
    nameFr: 'Programme des travailleurs de métiers spécialisés (fédéral)',
    programs: 'Federal Skilled Trades Program',
    programsFr: 'Programme des travailleurs de métiers spécialisés (fédéral)',
    from: 0.15,
    to: 0.45,
    weight: 0.4,
    crsLevel: 320,
    crsSd: 25,
    invitationLevel: 450,
    invitationSd: 120,
  },
  {
    name: 'Provincial Nominee Program',
    nameFr: 'Programme des candidats des provinces',
    programs: 'Provincial Nominee Program',
    programsFr: 'Programme des candidats des provinces',
    from: 0.3,
    to: 1,
    weight: 2.5,
    crsLevel: 735,
    crsSd: 20,
    invitationLevel: 900,
    invitationSd: 350,
  },
  {
    name: 'Canadian Experience Class',
    nameFr: 'Catégorie de l’expérience canadienne',
    programs: 'Canadian Experience Class',
    programsFr: 'Catégorie de l’expérience canadienne',
    from: 0.45,
    to: 1,
    weight: 2,
    crsLevel: 505,
    crsSd: 14,
    invitationLevel: 2600,
    invitationSd: 1100,
  },
  {
    name: 'General',
    nameFr: 'Général',
    programs: ALL_PROGRAMS,
    programsFr: ALL_PROGRAMS_FR,
    from: 0.64,
    to: 0.8,
    weight: 3,
    crsLevel: 535,
    crsSd: 12,
    invitationLevel: 2800,
    invitationSd: 900,
  },
  {
    name: 'French language proficiency (Version 1)',
    nameFr: 'Compétence linguistique en français (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.7,
    to: 1,
    weight: 1.4,
    crsLevel: 420,
    crsSd: 22,
    invitationLevel: 3000,
    invitationSd: 1500,
  },
  {
    name: 'Healthcare occupations (Version 1)',
    nameFr: 'Professions de la santé (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.7,
    to: 0.86,
    weight: 0.7,
    crsLevel: 455,
    crsSd: 15,
    invitationLevel: 1800,
    invitationSd: 800,
  },
  {
    name: 'Healthcare and social services occupations (Version 2)',
    nameFr: 'Professions des soins de santé et des services sociaux (version 2)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.86,
    to: 1,
    weight: 0.9,
    crsLevel: 470,
    crsSd: 14,
    invitationLevel: 2500,
    invitationSd: 900,
  },
  {
    name: 'STEM occupations (Version 1)',
    nameFr: 'Professions en sciences, technologies, génie et mathématiques (STGM) (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.7,
    to: 0.8,
    weight: 0.3,
    crsLevel: 490,
    crsSd: 8,
    invitationLevel: 4000,
    invitationSd: 1500,
  },
  {
    name: 'Trade occupations (Version 1)',
    nameFr: 'Métiers (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.72,
    to: 1,
    weight: 0.4,
    crsLevel: 445,
    crsSd: 15,
    invitationLevel: 1600,
    invitationSd: 500,
  },
  {
    name: 'Transport occupations (Version 1)',
    nameFr: 'Professions du transport (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.72,
    to: 0.8,
    weight: 0.2,
    crsLevel: 430,
    crsSd: 10,
    invitationLevel: 900,
    invitationSd: 300,
  },
  {
    name: 'Agriculture and agri-food occupations (Version 1)',
    nameFr: 'Professions de l’agriculture et de l’agroalimentaire (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.72,
    to: 0.78,
    weight: 0.15,
    crsLevel: 390,
    crsSd: 15,
    invitationLevel: 400,
    invitationSd: 150,
  },
  {
    name: 'Education occupations (Version 1)',
    nameFr: 'Professions de l’éducation (version 1)',
    programs: FEDERAL_PROGRAMS,
    programsFr: FEDERAL_PROGRAMS_FR,
    from: 0.9,
    to: 1,
    weight: 0.3,
    crsLevel: 475,
    crsSd: 10,
    invitationLevel: 1500,
    invitationSd: 500,
  },
];

/** Days between consecutive rounds and their weights (mean about ten days, as in the real feed). */
const GAPS = [0, 1, 2, 6, 7, 8, 13, 14, 15, 21, 28] as const;
const GAP_WEIGHTS = [0.04, 0.2, 0.1, 0.04, 0.12, 0.03, 0.08, 0.23, 0.06, 0.06, 0.04] as const;
/** Mean-reversion of a family's cut-off from one of its draws to the next. */
const CRS_PERSISTENCE = 0.75;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function longDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTH_NAMES[m - 1]} ${d}, ${y}`;
}

function withCommas(n: number): string {
  return n.toLocaleString('en-US');
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A Saturday or Sunday becomes the preceding Friday. */
function toWeekday(day: number): number {
  const w = weekday(day);
  return w === 6 ? day - 1 : w === 0 ? day - 2 : day;
}

/** dd1…dd18 of a plausible pool: the breakdowns add up to their bands and the bands to the total. */
function poolCounts(rng: Random, total: number): number[] {
  const shares = { dd1: 0.002, dd2: 0.08, dd3: 0.28, dd9: 0.25, dd15: 0.22, dd16: 0.11, dd17: 0.058 } as const;
  const top = Object.fromEntries(
    Object.entries(shares).map(([k, s]) => [k, Math.max(0, Math.round(total * s * rng.uniform(0.85, 1.15)))]),
  ) as Record<keyof typeof shares, number>;
  const split = (sum: number, parts: number): number[] => {
    const weights = Array.from({ length: parts }, () => rng.uniform(0.7, 1.3));
    const w = weights.reduce((s, x) => s + x, 0);
    const values = weights.map((x) => Math.floor((sum * x) / w));
    values[values.length - 1] += sum - values.reduce((s, x) => s + x, 0);
    return values;
  };
  const dd3 = split(top.dd3, 5);
  const dd9 = split(top.dd9, 5);
  const sum = top.dd1 + top.dd2 + top.dd3 + top.dd9 + top.dd15 + top.dd16 + top.dd17;
  return [top.dd1, top.dd2, top.dd3, ...dd3, top.dd9, ...dd9, top.dd15, top.dd16, top.dd17, sum];
}

export interface GeneratedFeed {
  classes: string;
  [GENERATED_MARKER]: { generator: string; note: string; seed: number; rounds: number; last_date: string };
  rounds: Record<string, string>[];
}

/**
 * `size` rounds ending on or just before `endDate` (the as-of date: the demo is current whenever it is
 * made), reproducible from `seed`. One same-day pair shares a lettered round number, as 91a/91b do.
 */
export function generateRoundsFeed(options: { size?: number; seed?: number; endDate: string }): GeneratedFeed {
  const size = Math.max(1, Math.floor(options.size ?? DEFAULT_DEMO_ROUNDS));
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const rng = new Random(seed);
  const end = dayNumber(options.endDate);
  const letteredAt = size >= 20 ? Math.floor(size * 0.35) : -1;

  // Dates, newest first, stepped back by sampled gaps; then put in chronological order.
  const days: number[] = [toWeekday(end - rng.int(0, 3))];
  for (let i = 1; i < size; i++) {
    const olderIndex = size - 1 - i; // chronological index of the round being dated
    const gap = olderIndex === letteredAt ? 0 : GAPS[rng.weightedIndex(GAP_WEIGHTS)];
    days.push(toWeekday(days[i - 1] - gap));
  }
  days.reverse();

  const state = new Map<string, number>();
  const rounds: Record<string, string>[] = [];
  let number = 0;
  for (let i = 0; i < size; i++) {
    const position = size === 1 ? 1 : i / (size - 1);
    const active = FAMILIES.filter((f) => position >= f.from && position <= f.to);
    const family = active[rng.weightedIndex(active.map((f) => f.weight))];
    const previous = state.get(family.name) ?? family.crsLevel + rng.normal(0, family.crsSd);
    const x =
      family.crsLevel + CRS_PERSISTENCE * (previous - family.crsLevel) + rng.normal(0, family.crsSd * Math.sqrt(1 - CRS_PERSISTENCE ** 2));
    state.set(family.name, x);
    const crs = Math.round(Math.min(1200, Math.max(60, x)));
    let invitations = Math.max(50, Math.round(rng.normal(family.invitationLevel, family.invitationSd)));
    if (rng.bool(0.6)) invitations = Math.max(50, Math.round(invitations / 50) * 50);

    let roundNumber: string;
    if (i === letteredAt) roundNumber = `${++number}a`;
    else if (i === letteredAt + 1 && letteredAt >= 0) roundNumber = `${number}b`;
    else roundNumber = String(++number);

    const date = isoFromDayNumber(days[i]);
    const drawTime = `${pad2(rng.int(12, 17))}:${pad2(rng.int(0, 59))}:${pad2(rng.int(0, 59))}`;
    const cutOffDay = isoFromDayNumber(days[i] - rng.int(1, 90));
    const cutOff =
      position >= 0.2 ? `${longDate(cutOffDay)} at ${pad2(rng.int(0, 23))}:${pad2(rng.int(0, 59))}:${pad2(rng.int(0, 59))} UTC` : '';
    const distribution = position >= 0.5 ? poolCounts(rng, rng.int(180_000, 260_000)) : POOL_BANDS.map(() => 0);
    const record: Record<string, string> = {
      drawNumber: roundNumber,
      drawDate: date,
      drawDateFull: longDate(date),
      drawName: family.name,
      drawSize: withCommas(invitations),
      drawCRS: String(crs),
      mitext: `Generated demo round #${roundNumber} (not an IRCC round)`,
      DrawText1: '',
      drawText2: family.programs,
      drawDateTime: `${longDate(date)} at ${drawTime} UTC`,
      drawCutOff: cutOff,
      drawDistributionAsOn: longDate(isoFromDayNumber(days[i] - rng.int(1, 4))),
    };
    POOL_BANDS.forEach((band, k) => {
      record[band.field] = withCommas(distribution[k]);
    });
    rounds.push(record);
  }
  rounds.reverse(); // the feed lists the newest round first
  return {
    classes: 'wb-tables',
    [GENERATED_MARKER]: {
      generator: 'pdi generate draws',
      note: 'Generated demo data: these are NOT real Express Entry rounds.',
      seed,
      rounds: size,
      last_date: rounds[0]?.drawDate ?? options.endDate,
    },
    rounds,
  };
}

/** "December 17, 2025 at 14:03:09 UTC" (the English feed's words) → "17 décembre 2025 à 14:03:09 UTC". */
function frenchDateWords(english: string): string {
  const match = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})(?: at (.*))?$/.exec(english);
  if (!match) return english;
  const iso = `${match[3]}-${pad2(MONTH_NAMES.indexOf(match[1]) + 1)}-${pad2(Number(match[2]))}`;
  return `${formatDate('fr', iso)}${match[4] === undefined ? '' : ` à ${match[4]}`}`;
}

/**
 * The French twin of a generated feed: the same rounds with the same numbers and figures, each text as the French
 * feed writes it (drawName and drawText2 in French, dates in French words, counts grouped with a space).
 */
export function frenchRoundsFeed(feed: GeneratedFeed): GeneratedFeed {
  const families = new Map(FAMILIES.map((f) => [f.name, f]));
  const count = (text: string) => (/^[\d,]+$/.test(text) ? formatNumberIn('fr', Number(text.replace(/,/g, ''))) : text);
  return {
    ...feed,
    [GENERATED_MARKER]: {
      ...feed[GENERATED_MARKER],
      note: 'Données de démonstration générées : ce ne sont PAS de vraies rondes d’Entrée express.',
    },
    rounds: feed.rounds.map((round) => {
      const family = families.get(round.drawName);
      const french: Record<string, string> = {
        ...round,
        drawName: family?.nameFr ?? round.drawName,
        drawText2: family?.programsFr ?? round.drawText2,
        mitext: `Ronde de démonstration générée no ${round.drawNumber} (pas une ronde d’IRCC)`,
        drawDateFull: frenchDateWords(round.drawDateFull),
        drawDateTime: frenchDateWords(round.drawDateTime),
        drawCutOff: frenchDateWords(round.drawCutOff),
        drawDistributionAsOn: frenchDateWords(round.drawDistributionAsOn),
        drawSize: count(round.drawSize),
      };
      for (const band of POOL_BANDS) french[band.field] = count(round[band.field]);
      return french;
    }),
  };
}

/**
 * Writes a generated feed and its French twin to `<out>/ee_rounds_123_en.generated.json` and
 * `<out>/ee_rounds_123_fr.generated.json`; returns their paths, English first.
 */
export async function writeGeneratedFeeds(
  out: string,
  options: { size?: number; seed?: number; endDate: string },
): Promise<{ english: string; french: string }> {
  await fs.mkdir(out, { recursive: true });
  const feed = generateRoundsFeed(options);
  const english = path.join(out, DEMO_FILE_NAME);
  const french = path.join(out, DEMO_FRENCH_FILE_NAME);
  await fs.writeFile(english, `${JSON.stringify(feed, null, 2)}\n`);
  await fs.writeFile(french, `${JSON.stringify(frenchRoundsFeed(feed), null, 2)}\n`);
  return { english, french };
}
