// Demo data for Service B: self-written JATS articles, plainly marked as generated (title, journal, abstract,
// a "generated" note the importer reads, authors "Example …"), imported through the same importer as a real store
// (as demo data: a real import removes them, and they are never added to a store that holds real articles). They
// exercise every path: a STAR-style key resources table in the body, an eLife-style five-column table in the
// floats group, and methods text with RRIDs and catalog numbers for the text extractor. A text-only article names
// some antibodies without their catalog number and RRID when another demo article writes them, so its table shows
// the identifier candidates the other papers give for those empty cells.
//
// Identifiers are demo forms that name no real resource: vendors "… (demo)", catalog numbers DEMO-…, and
// antibody RRIDs with leading zeros (RRID:AB_00001xx; the Antibody Registry numbers its entries without leading
// zeros). The service reports such RRIDs as `unverified` with a note that only generated articles write them
// (served-knowledge.ts), so a demo identifier is never presented as a validated one.
import fs from 'node:fs';
import path from 'node:path';
import { Random } from '../../core/random.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { GENERATED_MARKER, importStore } from './import.ts';
import { countRealArticles } from './repository.ts';
import type { KrtTables } from './tables.ts';

export const DEMO_DEFAULTS = { articles: 6, seed: 20240601 };

interface DemoResource {
  category: string;
  elifeType: string;
  name: string;
  source: string;
  identifier: string;
  /** How the methods text mentions it. */
  mention: string;
  /** How the methods text mentions it without its identifiers (antibodies only). */
  bareMention?: string;
  additional?: string;
}

const ANTIBODIES: DemoResource[] = [
  ['GFP', 'rabbit', 'Example Immunoreagents (demo)', 'DEMO-AB-0101', 'AB_0000101'],
  ['beta-actin', 'mouse', 'Example Biosciences (demo)', 'DEMO-AB-0102', 'AB_0000102'],
  ['FLAG tag', 'mouse', 'Example Immunoreagents (demo)', 'DEMO-AB-0103', 'AB_0000103'],
  ['histone H3', 'rabbit', 'Example Biosciences (demo)', 'DEMO-AB-0104', 'AB_0000104'],
  ['tubulin', 'rat', 'Example Immunoreagents (demo)', 'DEMO-AB-0105', 'AB_0000105'],
].map(([target, host, vendor, cat, rrid]) => ({
  category: 'Antibodies',
  elifeType: 'Antibody',
  name: `${host[0].toUpperCase()}${host.slice(1)} anti-${target} (generated demo)`,
  source: vendor,
  identifier: `Cat# ${cat}; RRID:${rrid}`,
  mention: `${host} anti-${target} antibody (${vendor}, Cat# ${cat}, RRID:${rrid}, 1:1000)`,
  bareMention: `${host} anti-${target} antibody (${vendor}, 1:1000)`,
}));

const OTHER_RESOURCES: DemoResource[] = [
  {
    category: 'Chemicals, peptides, and recombinant proteins',
    elifeType: 'Chemical compound, drug',
    name: 'Demo compound DX-1 (generated demo)',
    source: 'Placeholder Reagents (demo)',
    identifier: 'Cat# DEMO-CH-0201',
    mention: 'demo compound DX-1 (Placeholder Reagents (demo), Cat# DEMO-CH-0201)',
  },
  {
    category: 'Chemicals, peptides, and recombinant proteins',
    elifeType: 'Peptide, recombinant protein',
    name: 'Recombinant demo protein RP-2 (generated demo)',
    source: 'Placeholder Reagents (demo)',
    identifier: 'Cat# DEMO-CH-0202',
    mention: 'recombinant demo protein RP-2 (Placeholder Reagents (demo), Cat# DEMO-CH-0202)',
  },
  {
    category: 'Critical commercial assays',
    elifeType: 'Commercial assay or kit',
    name: 'Demo RNA extraction kit (generated demo)',
    source: 'Example Biosciences (demo)',
    identifier: 'Cat# DEMO-KT-0301',
    mention: 'the demo RNA extraction kit (Example Biosciences (demo), Cat# DEMO-KT-0301)',
  },
  {
    category: 'Experimental models: Cell lines',
    elifeType: 'Cell line (Homo sapiens)',
    name: 'DEMO-1 cells (generated demo cell line)',
    source: 'Example Cell Bank (demo)',
    identifier: 'Cat# DEMO-CL-0401',
    mention: 'DEMO-1 cells (Example Cell Bank (demo), Cat# DEMO-CL-0401)',
  },
  {
    category: 'Experimental models: Organisms/strains',
    elifeType: 'Strain, strain background (Mus musculus)',
    name: 'Mouse: demo strain DMO/1 (generated demo)',
    source: 'Example Animal Facility (demo)',
    identifier: 'Stock# DEMO-0501',
    mention: 'demo strain DMO/1 mice (Example Animal Facility (demo), Stock# DEMO-0501)',
  },
  {
    category: 'Oligonucleotides',
    elifeType: 'Sequence-based reagent',
    name: 'Demo primer F1 (generated demo)',
    source: 'This paper',
    identifier: 'N/A',
    mention: 'the primer 5′-ACGTTGCAACGTTGCAACGT-3′',
    additional: 'ACGTTGCAACGTTGCAACGT',
  },
  {
    category: 'Recombinant DNA',
    elifeType: 'Recombinant DNA reagent',
    name: 'pDEMO-1 plasmid (generated demo)',
    source: 'This paper',
    identifier: 'N/A',
    mention: 'the pDEMO-1 plasmid made for this demo',
  },
  {
    category: 'Deposited data',
    elifeType: 'Other',
    name: 'Demo sequencing data (generated demo; not deposited)',
    source: 'This paper',
    identifier: 'N/A',
    mention: 'the generated demo sequencing data (not deposited anywhere)',
  },
  {
    category: 'Software and algorithms',
    elifeType: 'Software, algorithm',
    name: 'DemoStat v1.2 (generated demo software)',
    source: 'Example Software Group (demo)',
    identifier: 'N/A',
    mention: 'DemoStat v1.2 (Example Software Group (demo))',
  },
];

const TOPICS = [
  'cell migration',
  'protein turnover',
  'stress granules',
  'neurite outgrowth',
  'mitochondrial fission',
  'membrane repair',
  'gene silencing',
  'axon guidance',
];
const LAYOUTS = ['star', 'elife', 'text'] as const;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function front(doi: string, title: string, date: { y: number; m: number; d: number }, authors: string[]): string {
  const contribs = authors
    .map((a) => {
      const [given, surname] = a.split(' ');
      return `<contrib contrib-type="author"><name><surname>${escapeXml(surname)}</surname><given-names>${escapeXml(given)}</given-names></name></contrib>`;
    })
    .join('');
  return `<front><journal-meta><journal-id journal-id-type="publisher-id">pdi-demo</journal-id><journal-title-group><journal-title>pdi demo data (generated)</journal-title></journal-title-group></journal-meta>
<article-meta><article-id pub-id-type="doi">${doi}</article-id><article-version article-version-type="number">1</article-version>
<title-group><article-title>${escapeXml(title)}</article-title></title-group>
<contrib-group>${contribs}</contrib-group>
<pub-date pub-type="epub"><day>${date.d}</day><month>${date.m}</month><year>${date.y}</year></pub-date>
<abstract><p>This article was generated by pdi to demonstrate the key resources table service. It describes no real study; its vendors, catalog numbers and identifiers are demo values that name no real resource.</p></abstract>
<custom-meta-group>${GENERATED_MARKER}</custom-meta-group>
</article-meta></front>`;
}

function starTable(resources: DemoResource[]): string {
  const groups = new Map<string, DemoResource[]>();
  for (const r of resources) groups.set(r.category, [...(groups.get(r.category) ?? []), r]);
  let rows = '';
  for (const [category, list] of groups) {
    rows += `<tr><td colspan="3"><bold>${escapeXml(category)}</bold></td></tr>`;
    for (const r of list)
      rows += `<tr><td>${escapeXml(r.name)}</td><td>${escapeXml(r.source)}</td><td>${escapeXml(r.identifier)}</td></tr>`;
  }
  return `<sec><title>Key resources table</title><table-wrap id="krt1"><label>Key resources table</label><table><thead><tr><th>REAGENT or RESOURCE</th><th>SOURCE</th><th>IDENTIFIER</th></tr></thead><tbody>${rows}</tbody></table></table-wrap></sec>`;
}

function elifeTable(resources: DemoResource[]): string {
  const rows = resources
    .map(
      (r) =>
        `<tr><td>${escapeXml(r.elifeType)}</td><td>${escapeXml(r.name)}</td><td>${escapeXml(r.source)}</td><td>${escapeXml(r.identifier)}</td><td>${escapeXml(r.additional ?? '')}</td></tr>`,
    )
    .join('');
  return `<floats-group><table-wrap id="keyresource"><label>Key resources table</label><table><thead><tr><th>Reagent type (species) or resource</th><th>Designation</th><th>Source or reference</th><th>Identifiers</th><th>Additional information</th></tr></thead><tbody>${rows}</tbody></table></table-wrap></floats-group>`;
}

/** The methods text; the resources in `bare` are named without their identifiers. */
function methodsText(resources: DemoResource[], bare: ReadonlySet<DemoResource> = new Set()): string {
  const antibodies = resources.filter((r) => r.category === 'Antibodies');
  const others = resources.filter((r) => r.category !== 'Antibodies');
  const mention = (r: DemoResource) => escapeXml(bare.has(r) && r.bareMention ? r.bareMention : r.mention);
  // "The protocol calls for X", not "We used X": the text extractor keeps a verb before a name in the name.
  const sentences = [
    antibodies.length ? `<p>Cells were stained with ${antibodies.map(mention).join(' and ')}.</p>` : '',
    ...others.map((r) => `<p>The generated protocol calls for ${mention(r)}.</p>`),
  ];
  return sentences.join('\n');
}

export interface DemoArticle {
  file: string;
  doi: string;
  layout: (typeof LAYOUTS)[number];
  xml: string;
}

/** Generated articles (`size` of them), deterministic for a seed. */
export function demoArticles(size = DEMO_DEFAULTS.articles, seed = DEMO_DEFAULTS.seed): DemoArticle[] {
  const random = new Random(seed);
  const plans: {
    i: number;
    year: number;
    layout: DemoArticle['layout'];
    antibodies: DemoResource[];
    resources: DemoResource[];
    date: { y: number; m: number; d: number };
  }[] = [];
  for (let i = 0; i < size; i++) {
    const year = 2021 + (i % 4);
    const layout = LAYOUTS[i % LAYOUTS.length];
    // Every article uses some antibodies shared with others (so the knowledge base sees RRIDs in several papers).
    const antibodies = random.shuffle([...ANTIBODIES]).slice(0, 2 + random.int(0, 2));
    const others = random.shuffle([...OTHER_RESOURCES]).slice(0, 3 + random.int(0, 3));
    const date = { y: year, m: 1 + random.int(0, 11), d: 1 + random.int(0, 27) };
    plans.push({ i, year, layout, antibodies, resources: [...antibodies, ...others], date });
  }
  return plans.map(({ i, year, layout, antibodies, resources, date }) => {
    const suffix = `demo.${year}.${String(i + 1).padStart(4, '0')}`;
    const doi = `10.1101/${suffix}`;
    const topic = TOPICS[i % TOPICS.length];
    // A text-only article keeps its first antibody's identifiers and leaves out those of the others that another
    // article writes: the knowledge base then has identifiers to propose for those rows.
    const writtenElsewhere = (r: DemoResource) => plans.some((p) => p.i !== i && p.resources.includes(r));
    const bare = new Set(layout === 'text' ? antibodies.slice(1).filter(writtenElsewhere) : []);
    const title = `[Generated demo] A fictional study of ${topic} (pdi demo article ${i + 1})`;
    const authors = ['Alex Example', 'Sam Sample', 'Robin Placeholder'].slice(0, 2 + (i % 2));
    const methods = `<sec sec-type="methods"><title>Methods</title><sec><title>Reagents</title>${methodsText(resources, bare)}</sec></sec>`;
    const body =
      layout === 'star'
        ? `<body><sec><title>Introduction</title><p>This generated article is demo data.</p></sec><sec sec-type="methods"><title>STAR Methods</title>${starTable(resources)}</sec></body>`
        : layout === 'elife'
          ? `<body><sec><title>Introduction</title><p>This generated article is demo data.</p></sec>${methods}</body>${elifeTable(resources)}`
          : `<body><sec><title>Introduction</title><p>This generated article is demo data.</p></sec>${methods}</body>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<article article-type="research-article" xmlns:xlink="http://www.w3.org/1999/xlink">${front(doi, title, date, authors)}\n${body}\n<back><ack><p>No funding: generated data.</p></ack></back></article>\n`;
    return { file: path.join(String(year), `${suffix}.xml`), doi, layout, xml };
  });
}

/** Writes the generated articles as a store (<out>/<year>/<suffix>.xml) and returns their paths. */
export async function writeDemoStore(out: string, size?: number, seed?: number): Promise<string[]> {
  const files: string[] = [];
  for (const article of demoArticles(size, seed)) {
    const file = path.join(out, article.file);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, article.xml);
    files.push(file);
  }
  return files;
}

/**
 * Writes the demo articles under the data directory and imports them as demo data, unless the store holds real
 * articles: demo data never mixes with real data (a real import removes it; this never adds it back).
 */
export async function loadKrtDemo(ctx: ServiceContext, options: { size?: number; seed?: number }): Promise<ImportReport[]> {
  const real = await countRealArticles(ctx.db.kysely.withTables<KrtTables>());
  if (real > 0) {
    ctx.log.info(`krt holds ${real} real articles: no demo data loaded`);
    return [];
  }
  const dir = path.join(ctx.config.dataDir, 'demo', 'krt');
  fs.rmSync(dir, { recursive: true, force: true }); // a smaller size must not leave older files behind
  await writeDemoStore(dir, options.size, options.seed);
  // Few small files: one thread is faster than starting workers.
  const report = await importStore(ctx.db, dir, { isDemo: true, workers: 1 });
  ctx.dataVersion.invalidate();
  return [report];
}
