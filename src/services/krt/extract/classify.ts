// Resource type from a table's category row (STAR Methods), an eLife "reagent type" cell, or the content of a
// row when the category does not decide (Bacterial and virus strains; a generic "Experimental models").

import { RESOURCE_TYPES, type ResourceType } from './krt-row.ts';
import { normalizeRrid, registryOf } from '../rrid/registry.ts';

export interface CategoryType {
  /** The type when the label decides it. */
  type: ResourceType | null;
  /** Types the content must choose between when the label does not decide. */
  choices: readonly ResourceType[];
}

const MODEL_CHOICES: readonly ResourceType[] = [
  'Experimental model: Cell line',
  'Experimental model: Organism/strain',
  'Bacterial strain',
  'Viral vector',
];
const STRAIN_CHOICES: readonly ResourceType[] = ['Bacterial strain', 'Viral vector', 'Experimental model: Organism/strain'];

/** Maps a category label or eLife reagent type to a resource type (or to choices for the content). */
export function typeOfCategory(label: string): CategoryType | null {
  const t = label
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[:.]+$/, '')
    .trim();
  if (!t) return null;
  const decided = (type: ResourceType): CategoryType => ({ type, choices: [] });
  if (/antibod|antisera|antiserum|nanobod/.test(t)) return decided('Antibody');
  if (/bacteri\w* and vir|vir\w* and bacteri|bacterial and viral|viruses? and bacteri/.test(t))
    return { type: null, choices: ['Bacterial strain', 'Viral vector'] };
  if (/^strain, strain background|^strains?\b|strain background/.test(t)) return { type: null, choices: STRAIN_CHOICES };
  // eLife's "biological sample (mouse)" is a sample of that species, not the organism.
  if (/biological samples?/.test(t)) return decided('Biological sample');
  // eLife's "genetic reagent (species)" is a line, strain or allele of that species; one whose parenthesis names a
  // plasmid or a virus is that ("genetic reagent (Addgene plasmid)").
  if (/genetic reagent/.test(t) && /plasmid|construct|\bvector|cdna/.test(t)) return decided('Recombinant DNA');
  if (/genetic reagent/.test(t) && /\bvir(us|uses|al)\b|\baav|lentivir/.test(t)) return decided('Viral vector');
  if (
    /genetic reagent|transgenic (construct|line|animal)|^animals?\b|organism|mice\b|mouse\b|^rats?\b|^fly|flies|drosophila|zebrafish|^worms?\b|c\. ?elegans|yeast|arabidopsis|^plants?\b/.test(
      t,
    )
  ) {
    return decided('Experimental model: Organism/strain');
  }
  if (/bacteri/.test(t)) return decided('Bacterial strain');
  if (/\bvir(us|uses|al)\b|aav|lentivir|phage(?! display)/.test(t)) return decided('Viral vector');
  if (/cell lines?|^cells?\b|cell culture|primary cells/.test(t)) return decided('Experimental model: Cell line');
  if (/experimental models?/.test(t)) return { type: null, choices: MODEL_CHOICES };
  if (/biological samples?|human (subjects|samples|tissue)|patient|specimen|tissue samples?|clinical samples?/.test(t))
    return decided('Biological sample');
  if (/sequence[- ]based|oligo|primer|sirna|shrna|sgrna|guide rna|grna|probes?\b|mirna|morpholino/.test(t))
    return decided('Oligonucleotide');
  if (/recombinant dna|plasmid|transfected construct|^constructs?\b|vectors?\b|\bdna reagent|cdna|bac clone/.test(t))
    return decided('Recombinant DNA');
  if (/commercial assay|assay or kit|\bkits?\b|assays?\b/.test(t)) return decided('Critical commercial assay');
  if (
    /chemical|peptide|recombinant protein|proteins?\b|drugs?\b|compounds?|enzymes?|reagents?|media\b|medium|buffers?|dyes?\b|stains?\b|inhibitor|lipid|small molecule/.test(
      t,
    )
  ) {
    return decided('Chemical, peptide, or recombinant protein');
  }
  if (/deposit|data ?sets?|\bdata\b|databases?|accession/.test(t)) return decided('Dataset');
  if (/software|algorithm|\bcode\b|programs?\b|tools?\b|plug-?ins?|packages?|scripts?/.test(t)) return decided('Software/code');
  if (/protocol/.test(t)) return decided('Protocol');
  if (/other|equipment|instrument|microscop|consumable|devices?|hardware|library|libraries|materials?/.test(t)) return decided('Other');
  return null;
}

const RE = {
  viral:
    /\b(r?aav\d*|aav[\w./-]*|lentivir\w*|retrovir\w*|adenovir\w*|vir(us|uses|al)|phage|bacteriophage|sars-cov-2?|hiv-?1?|vsv|influenza|sendai|baculovirus|pseudovirus|pseudotyped|h\d+n\d+)\b/i,
  bacterial:
    /\b(e\.\s?coli|escherichia|bacillus|salmonella|staphylococcus|pseudomonas|mycobacteri\w*|streptococcus|listeria|klebsiella|vibrio|agrobacterium|bl21|dh5(α|a|alpha)|top10|stbl3|xl1|xl10|rosetta|bacteri\w*|lucigen|neb 5-alpha|one ?shot)\b/i,
  cellLine:
    /\b(cell lines?|hek-?\s?293\w*|293t|hela|u-?2\s?os|cos-?7|vero(\s?e6)?|mdck|cho(-k1)?|jurkat|thp-?1|ipscs?|hescs?|escs?|mefs?|a549|hct-?116|mcf-?7|ptk2|sf9|sf21|high five|expi293\w*|hepg2|huh-?7|caco-?2|k562|raw\s?264\.7|nih\s?3t3|3t3|imr-?90|rpe-?1|hap1|h9|wtc-?11|kc167|s2r?\+?|calu-?3|sh-sy5y|pc-?12|cells)\b/i,
  organism:
    /\b(mouse|mice|mus musculus|rats?|rattus|drosophila|d\.\s?melanogaster|c\.\s?elegans|caenorhabditis|zebrafish|danio|xenopus|arabidopsis|yeast|saccharomyces|s\.\s?cerevisiae|s\.\s?pombe|c57bl\/?\d*\w*|balb\/c|sprague|wistar|gal4|gal80|uas[-.]|lexa|\w+\/j\b|tm\d\(|tg\(|knock-?in|knock-?out|flox|cre\b|canton[- ]s|w1118|oregon-?r|n2\b|strain)\b/i,
  antibody:
    /(?:\b|^|\s)(anti-|anti\s[A-Z]|α-|antibod\w*|igg\d?\w*|igm|igy|mab\b|monoclonal|polyclonal|clone\s|f\(ab'?\)2|nanobod\w*|antiserum|isotype)/i,
  software:
    /\b(software|version|package|script|python|matlab|imagej|fiji|graphpad|prism|r studio|rstudio|bioconductor|github|plug-?in|algorithm|pipeline|toolbox)\b|\bv\d+(\.\d+)+/i,
  oligo:
    /\b(primers?|sirna|shrna|sgrna|grna|guide rna|oligo\w*|probes?|morpholino|mirna mimic|crrna|tracrrna|forward|reverse)\b|5['′’]-|^[ACGTUacgtu\s-]{15,}$/,
  plasmid:
    /\b(plasmids?|vectors?|constructs?|pcdna\w*|plko\w*|px\d{3}\w*|pet-?\d+\w*|pgex\w*|pegfp\w*|pmscv\w*|plenti\w*|pcmv\w*|pcag\w*|pac\w*|addgene|cdna|orf\b|bac\b)/i,
  kit: /\b(kits?|assay|elisa|reagent system|microbeads?|isolation kit|library prep)\b/i,
  dataset:
    /\b(data ?sets?|raw data|sequencing data|deposited|accession|geo|sra|pride|zenodo|figshare|dryad|mendeley data|proteomexchange|emdb|pdb)\b/i,
  protocol: /\b(protocols?\.io|protocol)\b/i,
  sample:
    /\b(patients?|donors?|biops(y|ies)|plasma|whole blood|blood samples?|csf|cerebrospinal|tissue samples?|specimens?|autopsy|post-?mortem|pbmcs?)\b/i,
  chemical:
    /\b(acid|chloride|sulfate|sulphate|hydrochloride|bromide|sodium|potassium|calcium|inhibitor|agonist|antagonist|dmso|ethanol|methanol|paraformaldehyde|pfa|formaldehyde|glutaraldehyde|triton|tween|bsa|serum|fbs|dmem|rpmi|medium|media|buffer|trypsin|collagenase|dnase|rnase|proteinase|polymerase|ligase|enzyme|recombinant|protein|peptide|cytokine|growth factor|insulin|dapi|hoechst|phalloidin|streptavidin|puromycin|blasticidin|hygromycin|g418|doxycycline|tamoxifen|drug|compound|reagent|solution|dye|stain|lipofectamine|fugene|polyethylenimine|pei|matrigel|agarose)\b/i,
};

// What a name says it is, by its head word. "anti-" before a target, or "antibody", "IgG", "mAb" … as the head, names an
// antibody whatever its target ("anti-SARS-CoV-2 spike antibody" is no virus, "Goat anti-Rat IgG (H+L), Alexa Fluor 647"
// no dye, "mouse anti-beta-actin antibody" no plasmid); "kit" as the last word names a kit ("QIAamp Viral RNA Mini Kit",
// "High-Capacity cDNA Reverse Transcription Kit"). A name whose last word is another kind's ("antibody diluent", "anti-CD4
// MicroBeads", "… neutralizing antibody assay") or an adjective written with "anti-" ("anti-viral", "antibiotic-
// antimycotic (anti-anti)") is not read as an antibody.
const ANTI_ADJECTIVE =
  /^(?:viral|virals?|bacterial|biotics?|mycotics?|fungal|oxidants?|inflammator\w*|cancer|tumou?r\w*|sense|fade|coagula\w*|apoptotic|parasitic|malarial|retroviral|diabetic|depressants?|psychotics?|epileptics?|convulsants?|emetics?|histamines?|freeze|foam|static|parallel|anti)\b/i;
const ANTI_TARGET = /(?:^|[\s(/])anti(?:-\s?|\s)(?=[\p{L}\p{N}])/iu;
const ANTIBODY_HEAD =
  /(?:^|[\s(/-])(?:antibod(?:y|ies)|antisera|antiserum|nanobod(?:y|ies)|ig[gmaye](?:\d[a-z]?)?s?|f\(ab'?\)2|mabs?|nabs?)(?:$|[\s,)])/i;
const OTHER_HEAD =
  /(?:^|[\s-])(?:kits?|assays?|elisa|diluents?|buffers?|solutions?|(?:micro|dyna|magnetic\s)?beads|resins?|agarose|sepharose|arrays?|plates?|medium|media|reagents?|systems?|phages?|virus(?:es)?|plasmids?|vectors?|constructs?|cells?|lines?|mice|libraries|library)$/i;

/** A name without trademark signs and a last parenthesis ("Lipofectamine™ 3000 (Invitrogen)"): its head ends it. */
const headText = (name: string) =>
  name
    .replace(/[®™]/g, '')
    .replace(/\s*\([^()]*\)\s*$/, '')
    .trim();

/** The type a name's head word says, or null: 'Antibody' for an antibody's name, a kit for a kit's (see above). */
export function typeNamedBy(name: string): ResourceType | null {
  const text = headText(name);
  if (/(?:^|\s)kits?$/i.test(text)) return 'Critical commercial assay';
  if (OTHER_HEAD.test(text)) return null;
  const anti = ANTI_TARGET.exec(text);
  const target = anti ? text.slice(anti.index + anti[0].length) : '';
  if ((anti && !ANTI_ADJECTIVE.test(target)) || ANTIBODY_HEAD.test(text)) return 'Antibody';
  return null;
}

function rridTypes(identifier: string): ResourceType[] {
  const out: ResourceType[] = [];
  for (const m of identifier.matchAll(/RRID:\s*([^;\s]+)/gi)) {
    const id = normalizeRrid(m[1]);
    const registry = id ? registryOf(id) : null;
    if (registry) out.push(registry.resourceType);
  }
  return out;
}

/**
 * Resource type from the content of a row. With `choices`, the answer is one of them (the first as a last
 * resort); without, any of the 14, 'Other' when nothing is recognised.
 */
export function typeByContent(name: string, source: string, identifier: string, choices: readonly ResourceType[] = []): ResourceType {
  const text = `${name} ${source}`;
  const scores = new Map<ResourceType, number>();
  const add = (type: ResourceType, w: number) => scores.set(type, (scores.get(type) ?? 0) + w);
  for (const type of rridTypes(identifier)) add(type, 5);
  if (/\bCVCL_|ATCC\s*(CRL|HTB|CCL)|ECACC|DSMZ\s*ACC/i.test(identifier)) add('Experimental model: Cell line', 3);
  if (/IMSR|JAX|BDSC|Bloomington|VDRC|MMRRC|CGC|ZIRC|FBst|WBStrain/i.test(`${identifier} ${source}`))
    add('Experimental model: Organism/strain', 3);
  if (/GEO|GSE\d|SRA|SRR\d|PRJNA|PXD\d|EMD-|EMPIAR|zenodo|figshare|dryad|osf\.io/i.test(identifier)) add('Dataset', 3);
  if (/github\.com|gitlab|bitbucket|SCR_\d/i.test(identifier)) add('Software/code', 3);
  if (/protocols\.io/i.test(identifier)) add('Protocol', 3);
  if (/addgene/i.test(`${identifier} ${source}`)) add('Recombinant DNA', 2);
  if (RE.viral.test(name)) add('Viral vector', 2);
  if (RE.bacterial.test(text)) add('Bacterial strain', 2);
  // What the name's head says outweighs the words of its target or its parts ("anti-SARS-CoV-2 antibody").
  const named = typeNamedBy(name);
  if (named) add(named, 4);
  else if (RE.antibody.test(name) && !OTHER_HEAD.test(headText(name))) add('Antibody', 2);
  if (RE.cellLine.test(name)) add('Experimental model: Cell line', 1.5);
  if (RE.organism.test(name)) add('Experimental model: Organism/strain', 1.5);
  if (RE.oligo.test(name)) add('Oligonucleotide', 1.5);
  if (RE.plasmid.test(name)) add('Recombinant DNA', 1.2);
  if (RE.kit.test(name)) add('Critical commercial assay', 1.2);
  if (RE.software.test(text)) add('Software/code', 1);
  if (RE.dataset.test(name)) add('Dataset', 1);
  if (RE.protocol.test(name)) add('Protocol', 1);
  if (RE.sample.test(name)) add('Biological sample', 1);
  if (RE.chemical.test(name)) add('Chemical, peptide, or recombinant protein', 0.8);
  let best: ResourceType | null = null;
  let bestScore = 0;
  for (const [type, score] of scores) {
    if (choices.length && !choices.includes(type)) continue;
    if (score > bestScore) {
      best = type;
      bestScore = score;
    }
  }
  if (best) return best;
  return choices[0] ?? 'Other';
}

/**
 * Resolves a loosely written type ("antibodies", "cell line", "software") to one of the 14, or null. A table's
 * category as the author-table reader maps it comes first (typeOfCategory above: STAR's headings, eLife's
 * "Genetic reagent (D. melanogaster)" or "Sequence-based reagent", which the words below would read as chemicals).
 */
export function resourceTypeFromText(text: string): ResourceType | null {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  for (const type of RESOURCE_TYPES) if (type.toLowerCase() === t) return type;
  const category = typeOfCategory(text)?.type;
  if (category) return category;
  if (/antibod|^ab$/.test(t)) return 'Antibody';
  if (/cell ?line/.test(t)) return 'Experimental model: Cell line';
  if (/organism|strain|mouse|mice|\brat\b|fly|flies|zebrafish|worm|animal|model organism/.test(t) && !/bacteri/.test(t)) {
    return 'Experimental model: Organism/strain';
  }
  if (/bacteri/.test(t)) return 'Bacterial strain';
  if (/virus|viral|aav|lentivir/.test(t)) return 'Viral vector';
  if (/software|code|algorithm|program|tool/.test(t)) return 'Software/code';
  if (/data ?set|deposited|accession|database/.test(t)) return 'Dataset';
  if (/protocol/.test(t)) return 'Protocol';
  if (/sample|tissue|specimen|biopsy/.test(t)) return 'Biological sample';
  if (/kit|assay/.test(t)) return 'Critical commercial assay';
  if (/oligo|primer|sirna|shrna|sgrna|grna|probe/.test(t)) return 'Oligonucleotide';
  if (/plasmid|recombinant dna|vector|construct/.test(t)) return 'Recombinant DNA';
  if (/chemical|peptide|protein|drug|compound|reagent|enzyme/.test(t)) return 'Chemical, peptide, or recombinant protein';
  if (/other/.test(t)) return 'Other';
  return null;
}
