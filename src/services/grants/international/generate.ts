// Demo and scale data in the Project Browser format (format.ts): seeded, self-written vocabularies (place names and
// DAC purpose codes are facts; titles, descriptions and partners are made up), with the generated-data marker column.
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Random } from '../../../core/random.ts';
import { GENERATED_MARKER, PROJECT_COLUMNS } from './format.ts';
import type { ProjectField } from './format.ts';

/** ISO 3166-1 alpha-2 codes with English and French names. */
const COUNTRIES: ReadonlyArray<[string, string, string]> = [
  ['ET', 'Ethiopia', 'Éthiopie'],
  ['KE', 'Kenya', 'Kenya'],
  ['TZ', 'Tanzania', 'Tanzanie'],
  ['ML', 'Mali', 'Mali'],
  ['SN', 'Senegal', 'Sénégal'],
  ['BF', 'Burkina Faso', 'Burkina Faso'],
  ['GH', 'Ghana', 'Ghana'],
  ['NG', 'Nigeria', 'Nigéria'],
  ['CD', 'Democratic Republic of the Congo', 'République démocratique du Congo'],
  ['MZ', 'Mozambique', 'Mozambique'],
  ['HT', 'Haiti', 'Haïti'],
  ['CO', 'Colombia', 'Colombie'],
  ['PE', 'Peru', 'Pérou'],
  ['HN', 'Honduras', 'Honduras'],
  ['BO', 'Bolivia', 'Bolivie'],
  ['UA', 'Ukraine', 'Ukraine'],
  ['JO', 'Jordan', 'Jordanie'],
  ['LB', 'Lebanon', 'Liban'],
  ['AF', 'Afghanistan', 'Afghanistan'],
  ['BD', 'Bangladesh', 'Bangladesh'],
  ['VN', 'Viet Nam', 'Viet Nam'],
  ['PH', 'Philippines', 'Philippines'],
  ['ID', 'Indonesia', 'Indonésie'],
  ['MM', 'Myanmar', 'Myanmar'],
  ['PK', 'Pakistan', 'Pakistan'],
  ['NP', 'Nepal', 'Népal'],
  ['SS', 'South Sudan', 'Soudan du Sud'],
  ['SO', 'Somalia', 'Somalie'],
  ['YE', 'Yemen', 'Yémen'],
  ['MA', 'Morocco', 'Maroc'],
];

/** OECD DAC purpose codes, with English and French names written here. */
const SECTORS: ReadonlyArray<[string, string, string]> = [
  ['11220', 'Primary education', 'Enseignement primaire'],
  ['11330', 'Vocational training', 'Formation professionnelle'],
  ['12220', 'Basic health care', 'Soins de santé de base'],
  ['12240', 'Basic nutrition', 'Nutrition de base'],
  ['13020', 'Reproductive health care', 'Soins en matière de reproduction'],
  ['14030', 'Basic drinking water supply and basic sanitation', 'Eau potable et assainissement de base'],
  ['15150', 'Democratic participation and civil society', 'Participation démocratique et société civile'],
  ['15170', 'Women’s rights organisations and movements', 'Organisations et mouvements de défense des droits des femmes'],
  ['31120', 'Agricultural development', 'Développement agricole'],
  ['31166', 'Agricultural extension', 'Vulgarisation agricole'],
  ['41010', 'Environmental policy and administrative management', 'Politique environnementale et gestion administrative'],
  ['23210', 'Energy generation, renewable sources', 'Production d’énergie, sources renouvelables'],
  ['72010', 'Material relief assistance and services', 'Assistance matérielle et services d’urgence'],
  ['72040', 'Emergency food assistance', 'Aide alimentaire d’urgence'],
  ['74020', 'Multi-hazard response preparedness', 'Préparation aux interventions multirisques'],
];

const STATUSES: ReadonlyArray<[string, string, number]> = [
  ['Operational', 'Opérationnel', 0.55],
  ['Terminating', 'En voie d’achèvement', 0.15],
  ['Closed', 'Terminé', 0.3],
];

const AID_TYPES: ReadonlyArray<[string, string]> = [
  ['Project-type interventions', 'Interventions de type projet'],
  ['Contributions to pooled programmes and funds', 'Contributions à des programmes et fonds communs'],
  ['Core support to NGOs and other private bodies', 'Soutien de base aux ONG et autres organismes privés'],
];

const PROGRAMS: ReadonlyArray<[string, string]> = [
  ['Sub-Saharan Africa', 'Afrique subsaharienne'],
  ['Americas', 'Amériques'],
  ['Asia Pacific', 'Asie-Pacifique'],
  ['Europe, Middle East and Maghreb', 'Europe, Moyen-Orient et Maghreb'],
  ['International Humanitarian Assistance', 'Assistance humanitaire internationale'],
  ['Partnerships for Development Innovation', 'Partenariats pour l’innovation dans le développement'],
];

const PARTNER_WORDS = ['Horizon', 'Northern Lights', 'Maple', 'Confluence', 'Open Fields', 'Lakeshore', 'Bridgeway', 'Summit', 'Harvest'];
const PARTNER_KINDS: ReadonlyArray<[string, string]> = [
  ['Development Cooperation', 'Coopération au développement'],
  ['Health Alliance', 'Alliance santé'],
  ['Education Trust', 'Fiducie pour l’éducation'],
  ['Relief Network', 'Réseau de secours'],
  ['Water Initiative', 'Initiative pour l’eau'],
];

const TOPICS: ReadonlyArray<[string, string]> = [
  ['Improving Access to', 'Améliorer l’accès à'],
  ['Strengthening', 'Renforcer'],
  ['Building Resilience through', 'Bâtir la résilience par'],
  ['Supporting', 'Appuyer'],
];

const pick = <T>(random: Random, list: readonly T[]): T => list[random.int(0, list.length - 1)];

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The cells of one generated project, by field. */
function project(random: Random, n: number): Record<ProjectField, string> {
  // letter, six digits of project, three of sub-project (D001000001 is the first: the API reference's example)
  const number = `${'DPAS'[n % 4]}${String(1000 + n).padStart(6, '0')}001`;
  const startYear = random.int(2008, 2025);
  const start = new Date(Date.UTC(startYear, random.int(0, 11), random.int(1, 28)));
  const years = random.int(1, 8);
  const end = new Date(Date.UTC(startYear + years, random.int(0, 11), random.int(1, 28)));
  const draw = random.next();
  let acc = 0;
  let status = STATUSES[STATUSES.length - 1];
  for (const s of STATUSES) {
    acc += s[2];
    if (draw < acc) {
      status = s;
      break;
    }
  }
  // Contributions: log-normal around $2 million, in whole dollars.
  const contribution = Math.max(10_000, Math.round(Math.exp(random.normal(Math.log(2_000_000), 1.3))));
  const spentShare = status[0] === 'Closed' ? random.uniform(0.85, 1) : random.uniform(0, 0.9);
  const disbursed = Math.round(contribution * spentShare * 100) / 100;
  const countryCount = random.bool(0.8) ? 1 : random.int(2, 3);
  const countries = new Set<number>();
  while (countries.size < countryCount) countries.add(random.int(0, COUNTRIES.length - 1));
  const sectorCount = random.int(1, 3);
  const sectors = new Set<number>();
  while (sectors.size < sectorCount) sectors.add(random.int(0, SECTORS.length - 1));
  const shares = (k: number) => {
    // hundredths of a percent summing to 100.00%
    const cuts = Array.from({ length: k - 1 }, () => random.int(1, 9_999)).sort((a, b) => a - b);
    return [...cuts, 10_000].map((c, i) => c - (i === 0 ? 0 : cuts[i - 1]));
  };
  const percent = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}%`;
  const countryShares = shares(countries.size);
  const sectorShares = shares(sectors.size);
  const mainSector = SECTORS[[...sectors][0]];
  const mainCountry = COUNTRIES[[...countries][0]];
  const topic = pick(random, TOPICS);
  const partner = pick(random, PARTNER_KINDS);
  const word = pick(random, PARTNER_WORDS);
  const aid = pick(random, AID_TYPES);
  const program = pick(random, PROGRAMS);
  const people = random.int(2, 400) * 250; // (one figure, said in both languages)
  return {
    projectNumber: number,
    dateModified: iso(new Date(Date.UTC(2025, random.int(0, 11), random.int(1, 28)))),
    title: `${topic[0]} ${mainSector[1]} in ${mainCountry[1]}|${topic[1]} : ${mainSector[2].toLowerCase()} (${mainCountry[2]})`,
    description:
      `This project works with local partners in ${mainCountry[1]} on ${mainSector[1].toLowerCase()}, ` +
      `reaching about ${people.toLocaleString('en-CA')} people over ${years} years.|` +
      `Ce projet travaille avec des partenaires locaux (${mainCountry[2]}) dans le domaine suivant : ${mainSector[2].toLowerCase()}, ` +
      `auprès d’environ ${people.toLocaleString('fr-CA')} personnes sur ${years} ans.`,
    status: `${status[0]}|${status[1]}`,
    start: iso(start),
    end: iso(end),
    countries: [...countries]
      .map((c, i) => `${COUNTRIES[c][1]}|${COUNTRIES[c][2]} (${COUNTRIES[c][0]}): ${percent(countryShares[i])}`)
      .join('; '),
    executingAgencyPartner: `${word} ${partner[0]}|${partner[1]} ${word}`,
    sectors: [...sectors].map((s, i) => `${SECTORS[s][1]}|${SECTORS[s][2]} (${SECTORS[s][0]}): ${percent(sectorShares[i])}`).join('; '),
    maximumContribution: contribution.toFixed(2),
    disbursements: disbursed.toFixed(2),
    expectedResults: `More people in ${mainCountry[1]} use the services the project supports.|Plus de personnes utilisent les services que le projet appuie (${mainCountry[2]}).`,
    aidType: `${aid[0]}|${aid[1]}`,
    programName: `${program[0]}|${program[1]}`,
  };
}

const INTERNATIONAL_DEMO_PROJECTS = 800;
export const INTERNATIONAL_FILE = 'international-projects.csv';

/** Writes `<out>/international-projects.csv` with `size` projects (default 800), seeded. */
export function writeInternationalCsv(
  out: string,
  size = INTERNATIONAL_DEMO_PROJECTS,
  seed: number | string = 'demo-international',
): string {
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, INTERNATIONAL_FILE);
  const random = new Random(seed);
  const fields = Object.keys(PROJECT_COLUMNS) as ProjectField[];
  const rows: string[][] = [[...fields.map((f) => PROJECT_COLUMNS[f]), GENERATED_MARKER]];
  for (let n = 0; n < size; n++) {
    const cells = project(random, n);
    rows.push([...fields.map((f) => cells[f]), '1']);
  }
  fs.writeFileSync(file, stringify(rows));
  return file;
}
