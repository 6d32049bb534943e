// Generates a grants CSV in the real schema (pre-2025 or December 2025) plus a last column that marks it
// generated (GENERATED_MARKER_COLUMN: the importer labels its data demo), of any size, seeded and streamed:
// rows are written in batches that wait for 'drain', and the only state kept is bounded (the recipient
// pool, the open agreements that may still be amended, and reference counters), so 1.3 million rows take
// the same memory as 50,000.
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { Random } from '../../../core/random.ts';
import { GENERATED_MARKER_COLUMN, columnsOf } from '../source/columns.ts';
import type { GrantsSchema } from '../source/columns.ts';
import { PROVINCE_NAMES_EN } from '../source/provinces.ts';
import type { ProvinceCode } from '../source/provinces.ts';
import type { RecipientType } from '../source/record.ts';
import {
  CITIES,
  DEPARTMENTS,
  DESCRIPTION_SENTENCES,
  EXPECTED_RESULTS,
  FOREIGN_CITIES,
  NAME_WORDS,
  POSTAL_PREFIX,
  TITLE_ACTIONS,
  TITLE_OBJECTS,
  TITLE_OBJECTS_NEAR_MISS,
  TITLE_OBJECTS_NOTABLE,
  TITLE_ACTIONS_FR,
  TITLE_OBJECTS_FR,
  TITLE_OBJECTS_NEAR_MISS_FR,
  TITLE_OBJECTS_NOTABLE_FR,
  DESCRIPTION_SENTENCES_FR,
  EXPECTED_RESULTS_FR,
} from './vocabulary.ts';
import type { Department, Program } from './vocabulary.ts';

export interface GenerateOptions {
  rows: number;
  seed?: number | string;
  schema?: GrantsSchema;
  /** First and last fiscal years (start years) of the agreements; default 2005 to 2024 (2005-06 … 2024-25). */
  firstFiscalYear?: number;
  lastFiscalYear?: number;
  /** Share of rows that amend an earlier agreement (default 0.12). */
  amendmentRate?: number;
  /** Share of rows with an empty agreement_value, which the importer must skip (default 0.0005). */
  malformedRate?: number;
  /** Write a UTF-8 byte order mark first, as open.canada.ca does (default true). */
  bom?: boolean;
}

export interface GenerateSummary {
  schema: GrantsSchema;
  seed: number | string;
  rows: number;
  /** Distinct (owner_org, reference) among valid rows. */
  agreements: number;
  originalRows: number;
  amendmentRows: number;
  /** Rows with an empty agreement_value (each its own reference, never amended). */
  malformedRows: number;
  maxAmendmentNumber: number;
  /** Σ over agreements of the value of their highest amendment, in cents: what resolution must reproduce. */
  currentValueTotalCents: number;
  bytesWritten: number;
  header: readonly string[];
}

/** A recipient's city in English and French (a bilingual cell "English|French"; one name serves both otherwise). */
function cityNames(city: string): [string, string] {
  const [en, fr] = city.split('|');
  return [en, fr ?? en];
}

interface Recipient {
  type: RecipientType;
  legalName: string;
  operatingName: string;
  businessNumber: string;
  country: string;
  province: ProvinceCode | '';
  city: string;
  postalCode: string;
  naics: string;
  riding: number;
}

/** An agreement that may still be amended: everything needed to write its next amendment row. */
interface OpenAgreement {
  fields: Record<string, string>;
  amendment: number;
  valueCents: number;
  startDate: Date;
  endDate: Date | null;
  lastAmendmentDate: Date;
  amendmentsLeft: number;
}

const OPEN_POOL_LIMIT = 4096;
const BATCH_ROWS = 500;

const NAICS_BY_TYPE: Readonly<Record<RecipientType, readonly string[]>> = {
  F: ['311410', '3254', '334410', '336390', '5112', '541710', '111419', '112511', '321999', '484110', '221118', '5415'],
  N: ['813310', '624190', '624210', '711311', '813410', '611690', '623990', '712110'],
  S: ['611310', '611210', '541710'],
  A: ['913910', '813110', '624190', '114113'],
  G: ['913910', '912910', '911910', '519121'],
  I: ['813310', '624230'],
  P: ['541710', '711511'],
  O: ['813990', '551114'],
};

function csvField(value: string): string {
  if (value === '') return '';
  if (/[",\r\n]/.test(value) || value !== value.trim()) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

function isoDate(d: Date): string {
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  return `${d.getUTCFullYear()}-${m < 10 ? '0' : ''}${m}-${day < 10 ? '0' : ''}${day}`;
}

/** Sampling in proportion to fixed weights by binary search on the cumulative sums (drawn once per row). */
class WeightedSampler {
  private readonly cumulative: Float64Array;
  private readonly total: number;
  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }
  sample(rng: Random): number {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

function addMonths(d: Date, months: number): Date {
  const r = new Date(d.getTime());
  r.setUTCMonth(r.getUTCMonth() + months);
  return r;
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

function formatValue(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

class GrantsGenerator {
  private readonly rng: Random;
  private readonly schema: GrantsSchema;
  private readonly columns: readonly string[];
  private readonly firstYear: number;
  private readonly years: WeightedSampler;
  private readonly departments: WeightedSampler;
  private readonly cities: WeightedSampler;
  private readonly recipientTypeSamplers: Array<{ types: RecipientType[]; sampler: WeightedSampler }>;
  private readonly recipientsByType = new Map<RecipientType, Recipient[]>();
  private readonly counters = new Map<string, number>();
  private readonly open: OpenAgreement[] = [];
  private nextPlainNumber = 1_000_000;
  private nextMalformed = 1;

  constructor(seed: number | string, schema: GrantsSchema, firstYear: number, lastYear: number, rows: number) {
    this.rng = new Random(seed);
    this.schema = schema;
    // the schema's columns, then the marker that labels the file generated (its cells are empty)
    this.columns = [...columnsOf(schema), GENERATED_MARKER_COLUMN];
    this.firstYear = firstYear;
    // Disclosure volume grew over time: each year ~6% more agreements than the one before.
    const yearWeights: number[] = [];
    for (let y = firstYear; y <= lastYear; y++) yearWeights.push(Math.pow(1.06, y - firstYear));
    this.years = new WeightedSampler(yearWeights);
    this.departments = new WeightedSampler(DEPARTMENTS.map((d) => d.weight));
    this.cities = new WeightedSampler(CITIES.map((c) => c.population));
    this.recipientTypeSamplers = DEPARTMENTS.map((d) => {
      const types = Object.keys(d.recipientTypes) as RecipientType[];
      return { types, sampler: new WeightedSampler(types.map((t) => d.recipientTypes[t] ?? 0)) };
    });
    const poolSize = Math.max(400, Math.min(40_000, Math.round(rows / 8)));
    const poolRng = this.rng.fork('recipients');
    const types: RecipientType[] = ['F', 'N', 'S', 'A', 'G', 'I', 'P', 'O'];
    const shares = [0.25, 0.32, 0.14, 0.09, 0.08, 0.05, 0.05, 0.02];
    types.forEach((type, i) => {
      const n = Math.max(20, Math.round(poolSize * shares[i]));
      const list: Recipient[] = [];
      for (let k = 0; k < n; k++) list.push(this.makeRecipient(poolRng, type));
      this.recipientsByType.set(type, list);
    });
  }

  header(): readonly string[] {
    return this.columns;
  }

  private makeRecipient(r: Random, type: RecipientType): Recipient {
    const w = NAME_WORDS;
    const city = CITIES[this.cities.sample(r)];
    const cityName = r.bool(0.15) && city.nameFr ? `${city.nameEn}|${city.nameFr}` : city.nameEn;
    const fill = (template: string): string =>
      template
        .replace('{city}', city.nameEn)
        .replace('{province}', PROVINCE_NAMES_EN[city.province])
        .replace('{provinceName}', PROVINCE_NAMES_EN[city.province]);
    let legalName: string;
    switch (type) {
      case 'F':
        legalName = `${r.pick(w.businessPrefix)} ${r.pick(w.businessCore)} ${r.pick(w.businessSuffix)}`;
        if (legalName.includes('|')) {
          // bilingual legal name "English|French": repeat the name with the French suffix
          const [en, fr] = legalName.split('|');
          legalName = `${en}|${en.replace(/ [^ ]+$/, '')} ${fr}`;
        }
        break;
      case 'N':
        legalName = `${r.bool(0.6) ? city.nameEn + ' ' : ''}${r.pick(w.nonprofitTopic)} ${r.pick(w.nonprofitForm)}`;
        break;
      case 'S':
        legalName = fill(r.pick(w.academicForm));
        break;
      case 'A':
        legalName = `${r.pick(w.indigenousPlace)} ${r.pick(w.indigenousForm)}`;
        break;
      case 'G':
        legalName = fill(r.pick(w.governmentForm));
        break;
      case 'I':
        legalName = r.pick(w.internationalNames);
        break;
      case 'P':
        legalName = `${r.pick(w.givenNames)} ${r.pick(w.familyNames)}`;
        break;
      default:
        legalName = `${city.nameEn} ${r.pick(w.otherNames)}`;
    }
    if (type === 'I') {
      const foreign = r.pick(FOREIGN_CITIES);
      return {
        type,
        legalName,
        operatingName: '',
        businessNumber: '',
        country: foreign.country,
        province: '',
        city: foreign.city,
        postalCode: '',
        naics: r.pick(NAICS_BY_TYPE.I),
        riding: 0,
      };
    }
    const letters = 'ABCEGHJKLMNPRSTVWXYZ';
    const prefixes = POSTAL_PREFIX[city.province];
    const postal = `${prefixes[r.int(0, prefixes.length - 1)]}${r.int(0, 9)}${letters[r.int(0, 19)]} ${r.int(0, 9)}${letters[r.int(0, 19)]}${r.int(0, 9)}`;
    return {
      type,
      legalName,
      operatingName: type === 'F' && r.bool(0.25) ? `${legalName.split(' ')[0]} ${legalName.split(' ')[1] ?? ''}`.trim() : '',
      businessNumber: type === 'P' || r.bool(0.35) ? '' : String(r.int(100_000_000, 999_999_999)),
      country: 'CA',
      province: city.province,
      city: cityName,
      postalCode: r.bool(0.9) ? postal : '',
      naics: r.pick(NAICS_BY_TYPE[type]),
      riding: r.int(10_001, 62_999),
    };
  }

  private pickRecipient(deptIndex: number): Recipient {
    const { types, sampler } = this.recipientTypeSamplers[deptIndex];
    const type = types[sampler.sample(this.rng)];
    const list = this.recipientsByType.get(type)!;
    // Heavy head: a few recipients (large universities, big charities) hold many agreements.
    return list[Math.floor(list.length * Math.pow(this.rng.next(), 2.5))];
  }

  /** Lognormal mixture: many small agreements, a thick middle, and a few over $10M. */
  private valueCents(): number {
    const r = this.rng;
    const u = r.next();
    const [median, sigma] = u < 0.58 ? [22_000, 0.8] : u < 0.9 ? [140_000, 1.0] : u < 0.99 ? [1_300_000, 0.9] : [14_000_000, 1.1];
    let dollars = median * Math.exp(sigma * r.normal());
    dollars = Math.max(1_000, Math.min(dollars, 2_500_000_000));
    const style = r.next();
    if (style < 0.55) return Math.round(dollars) * 100; // whole dollars
    if (style < 0.85) {
      const step = dollars >= 100_000 ? 1_000 : 100; // round hundreds or thousands
      return Math.max(step, Math.round(dollars / step) * step) * 100;
    }
    return Math.round(dollars * 100); // with cents
  }

  private reference(dept: Department, fiscalYear: number, quarter: number): string {
    if (this.rng.bool(0.03)) {
      // some departments publish their own agreement numbers instead of the controlled pattern
      return String(this.nextPlainNumber++);
    }
    const key = `${dept.number}-${fiscalYear}-Q${quarter}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return `${dept.number}-${fiscalYear}-${fiscalYear + 1}-Q${quarter}-${String(n).padStart(5, '0')}`;
  }

  /** A title in English and French (the same choices: each French list follows its English one item for item). */
  private title(program: Program, recipient: Recipient): { en: string; fr: string } {
    const r = this.rng;
    const u = r.next();
    const [objects, objectsFr] =
      u < 0.06
        ? [TITLE_OBJECTS_NOTABLE, TITLE_OBJECTS_NOTABLE_FR]
        : u < 0.09
          ? [TITLE_OBJECTS_NEAR_MISS, TITLE_OBJECTS_NEAR_MISS_FR]
          : [TITLE_OBJECTS, TITLE_OBJECTS_FR];
    const object = r.pick(objects);
    const objectFr = objectsFr[objects.indexOf(object)];
    const [cityEn, cityFr] = cityNames(recipient.city);
    const there = recipient.city !== '' && r.bool(0.3);
    const where = there ? ` in ${cityEn}` : '';
    const whereFr = there ? ` à ${cityFr}` : '';
    if (r.bool(0.04)) return { en: `${program.nameEn}: ${object}`, fr: `${program.nameFr} : ${objectFr}` };
    const action = r.pick(TITLE_ACTIONS);
    return { en: `${action} ${object}${where}`, fr: `${TITLE_ACTIONS_FR[TITLE_ACTIONS.indexOf(action)]} ${objectFr}${whereFr}` };
  }

  private description(program: Program, recipient: Recipient): { en: string; fr: string } {
    const r = this.rng;
    const count = r.int(1, 3);
    const parts: string[] = [];
    const partsFr: string[] = [];
    const [cityEn, cityFr] = cityNames(recipient.city);
    for (let i = 0; i < count; i++) {
      const sentence = r.pick(DESCRIPTION_SENTENCES);
      const n = String(r.int(20, 5_000));
      const k = String(r.int(2, 12));
      const fill = (template: string, programName: string, city: string, region: string) =>
        template
          .replace('{n}', n)
          .replace('{k}', k)
          .replace('{program}', programName)
          .replace('{city}', city || region);
      parts.push(fill(sentence, program.nameEn, cityEn, 'the region'));
      partsFr.push(fill(DESCRIPTION_SENTENCES_FR[DESCRIPTION_SENTENCES.indexOf(sentence)], program.nameFr, cityFr, 'la région'));
    }
    if (r.bool(0.05))
      return {
        en: `Phase 1: ${parts[0]}\nPhase 2: ${parts.slice(1).join(' ') || 'Evaluation and reporting.'}`,
        fr: `Phase 1 : ${partsFr[0]}\nPhase 2 : ${partsFr.slice(1).join(' ') || 'Évaluation et production de rapports.'}`,
      };
    return { en: parts.join(' '), fr: partsFr.join(' ') };
  }

  /** A new agreement's row (fields by column name). */
  private newAgreement(): { fields: Record<string, string>; valueCents: number; start: Date; end: Date | null } {
    const r = this.rng;
    const deptIndex = this.departments.sample(r);
    const dept = DEPARTMENTS[deptIndex];
    const program = r.pick(dept.programs);
    const recipient = this.pickRecipient(deptIndex);
    const fiscalYear = this.firstYear + this.years.sample(r);
    const start = addDays(new Date(Date.UTC(fiscalYear, 3, 1)), r.int(0, 364));
    const quarter = Math.min(4, Math.floor(((start.getUTCMonth() + 12 - 3) % 12) / 3) + 1);
    const months = r.next() < 0.35 ? r.int(1, 12) : r.next() < 0.7 ? r.int(13, 36) : r.next() < 0.85 ? r.int(37, 60) : r.int(61, 120);
    const end = r.bool(0.03) ? null : addDays(addMonths(start, months), -1);
    const valueCents = this.valueCents();
    const reference = this.reference(dept, fiscalYear, quarter);
    const title = this.title(program, recipient);
    // (drawn where the row's cells are, in their order: the generator's sequence of draws stays as it was)
    let description: { en: string; fr: string } | undefined;
    let expectedResults = '';
    let purpose = '';
    const blank = (p: number, value: string): string => (r.bool(p) ? '' : value);
    const fields: Record<string, string> = {
      amendment_number: '0',
      amendment_date: '',
      agreement_type: program.agreementType,
      recipient_type: recipient.type,
      recipient_business_number: recipient.businessNumber,
      recipient_legal_name: recipient.legalName,
      recipient_operating_name: recipient.operatingName,
      research_organization_name: recipient.type === 'P' && r.bool(0.7) ? `University of ${r.pick(CITIES).nameEn}` : '',
      recipient_country: recipient.country,
      recipient_province: recipient.province,
      recipient_city: recipient.city,
      recipient_postal_code: recipient.postalCode,
      federal_riding_name_en: '',
      federal_riding_name_fr: '',
      federal_riding_number: recipient.riding > 0 && r.bool(0.6) ? String(recipient.riding) : '',
      prog_name_en: program.nameEn,
      prog_name_fr: program.nameFr,
      prog_purpose_en: (purpose = blank(0.1, program.purposeEn)),
      // a program's purpose in both languages or in neither, each in its own column as the source gives it
      prog_purpose_fr: purpose === '' ? '' : program.purposeFr,
      agreement_title_en: title.en,
      agreement_title_fr: title.fr,
      agreement_value: formatValue(valueCents),
      foreign_currency_type: '',
      foreign_currency_value: '',
      agreement_start_date: isoDate(start),
      agreement_end_date: end ? isoDate(end) : '',
      agreement_termination_date: '',
      coverage: '',
      description_en: (description = this.description(program, recipient)).en,
      description_fr: description.fr,
      naics_identifier: blank(0.3, recipient.naics),
      expected_results_en: (expectedResults = blank(0.2, r.pick(EXPECTED_RESULTS))),
      expected_results_fr: expectedResults === '' ? '' : EXPECTED_RESULTS_FR[EXPECTED_RESULTS.indexOf(expectedResults)],
      additional_information_en: r.bool(0.03)
        ? 'Recipient reallocates part of the funding to third parties, as permitted by the agreement.'
        : '',
      additional_information_fr: '',
      owner_org: dept.ownerOrg,
      owner_org_title: `${dept.titleEn} | ${dept.titleFr}`,
    };
    if (this.schema === 'pre2025') {
      fields.ref_number = reference;
      fields.agreement_number = r.bool(0.4) ? `${dept.number}${r.int(100_000, 999_999)}` : '';
    } else {
      fields.agreement_number = reference;
      fields.alternate_agreement_number = r.bool(0.2) ? `F${r.int(1000, 9999)}-${r.int(100_000, 999_999)}` : '';
    }
    if (recipient.type === 'I' && r.bool(0.5)) {
      fields.foreign_currency_type = 'USD';
      fields.foreign_currency_value = formatValue(Math.round((valueCents * 0.73) / 100) * 100);
    }
    return { fields, valueCents, start, end };
  }

  private amend(open: OpenAgreement): number {
    const r = this.rng;
    const oldValue = open.valueCents;
    // amendments mostly add money; some reduce it
    const factor = r.bool(0.8) ? r.uniform(1.02, 1.8) : r.uniform(0.5, 0.98);
    const newValue = Math.round((oldValue * factor) / 100) * 100;
    open.amendment += 1;
    open.valueCents = newValue;
    const earliest = addDays(open.lastAmendmentDate, 1);
    open.lastAmendmentDate = addDays(earliest, r.int(30, 400));
    if (open.endDate && r.bool(0.4)) open.endDate = addMonths(open.endDate, r.int(3, 24));
    open.fields.amendment_number = String(open.amendment);
    open.fields.amendment_date = isoDate(open.lastAmendmentDate);
    open.fields.agreement_value = formatValue(newValue);
    open.fields.agreement_end_date = open.endDate ? isoDate(open.endDate) : '';
    open.amendmentsLeft -= 1;
    return newValue - oldValue;
  }

  line(fields: Record<string, string>): string {
    let out = '';
    for (let i = 0; i < this.columns.length; i++) {
      if (i > 0) out += ',';
      out += csvField(fields[this.columns[i]] ?? '');
    }
    return out + '\r\n';
  }

  /** The next row and its bookkeeping. */
  next(
    amendmentRate: number,
    malformedRate: number,
  ): { line: string; kind: 'original' | 'amendment' | 'malformed'; valueDelta: number; amendment: number } {
    const r = this.rng;
    if (this.open.length > 0 && r.bool(amendmentRate)) {
      const i = r.int(0, this.open.length - 1);
      const open = this.open[i];
      const delta = this.amend(open);
      const line = this.line(open.fields);
      const amendment = open.amendment;
      if (open.amendmentsLeft <= 0) {
        this.open[i] = this.open[this.open.length - 1];
        this.open.pop();
      }
      return { line, kind: 'amendment', valueDelta: delta, amendment };
    }
    const agreement = this.newAgreement();
    if (r.bool(malformedRate)) {
      agreement.fields.agreement_value = '';
      const ref = `MALFORMED-${this.nextMalformed++}`;
      if (this.schema === 'pre2025') agreement.fields.ref_number = ref;
      else agreement.fields.agreement_number = ref;
      return { line: this.line(agreement.fields), kind: 'malformed', valueDelta: 0, amendment: 0 };
    }
    if (r.bool(0.0005)) {
      // a recovery or termination published as a negative agreement value
      agreement.valueCents = -Math.max(100, Math.round(agreement.valueCents / 1000) * 100);
      agreement.fields.agreement_value = formatValue(agreement.valueCents);
      return { line: this.line(agreement.fields), kind: 'original', valueDelta: agreement.valueCents, amendment: 0 };
    }
    if (r.bool(0.35)) {
      const entry: OpenAgreement = {
        fields: agreement.fields,
        amendment: 0,
        valueCents: agreement.valueCents,
        startDate: agreement.start,
        endDate: agreement.end,
        lastAmendmentDate: agreement.start,
        amendmentsLeft: 1 + Math.min(5, Math.floor(r.exponential(0.8))),
      };
      if (this.open.length < OPEN_POOL_LIMIT) this.open.push(entry);
      else this.open[r.int(0, OPEN_POOL_LIMIT - 1)] = entry; // the evicted one is simply never amended again
    }
    return { line: this.line(agreement.fields), kind: 'original', valueDelta: agreement.valueCents, amendment: 0 };
  }
}

/**
 * Writes `rows` data rows (plus the header) to a file path or a writable stream, waiting for 'drain'
 * whenever the stream's buffer is full. The stream is ended when done (a path is also closed).
 */
export async function writeGrantsCsv(target: string | Writable, options: GenerateOptions): Promise<GenerateSummary> {
  const rows = Math.max(0, Math.floor(options.rows));
  const seed = options.seed ?? 'demo-grants';
  const schema = options.schema ?? 'pre2025';
  const firstYear = options.firstFiscalYear ?? 2005;
  const lastYear = options.lastFiscalYear ?? 2024;
  if (lastYear < firstYear) throw new RangeError('lastFiscalYear must not be before firstFiscalYear');
  const amendmentRate = options.amendmentRate ?? 0.12;
  const malformedRate = options.malformedRate ?? 0.0005;
  const generator = new GrantsGenerator(seed, schema, firstYear, lastYear, rows);
  const out: Writable = typeof target === 'string' ? createWriteStream(target) : target;
  let bytesWritten = 0;
  const write = async (text: string): Promise<void> => {
    bytesWritten += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };

  const header = generator.header();
  await write(`${options.bom === false ? '' : '\uFEFF'}${header.join(',')}\r\n`);
  let originals = 0;
  let amendments = 0;
  let malformed = 0;
  let maxAmendment = 0;
  let total = 0;
  let batch = '';
  let inBatch = 0;
  for (let i = 0; i < rows; i++) {
    const row = generator.next(amendmentRate, malformedRate);
    if (row.kind === 'original') originals++;
    else if (row.kind === 'amendment') amendments++;
    else malformed++;
    total += row.valueDelta;
    if (row.amendment > maxAmendment) maxAmendment = row.amendment;
    batch += row.line;
    if (++inBatch === BATCH_ROWS) {
      await write(batch);
      batch = '';
      inBatch = 0;
    }
  }
  if (batch) await write(batch);
  out.end();
  await once(out, typeof target === 'string' ? 'close' : 'finish');
  if (!Number.isSafeInteger(total)) throw new RangeError('generated value total exceeds the exact integer range');
  return {
    schema,
    seed,
    rows,
    agreements: originals,
    originalRows: originals,
    amendmentRows: amendments,
    malformedRows: malformed,
    maxAmendmentNumber: maxAmendment,
    currentValueTotalCents: total,
    bytesWritten,
    header,
  };
}
