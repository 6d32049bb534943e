// Suppliers of research resources: how authors write their names, and which company owns which brand
// (Invitrogen, Gibco and Life Technologies are Thermo Fisher brands), so that "Invitrogen" and "Thermo Fisher
// Scientific" count as the same source when catalog numbers are compared. Ownership facts from the companies'
// own pages; the list covers the suppliers that recur in key resources tables.

export interface Vendor {
  name: string;
  /** Owner company when the name is a brand or an acquired company. */
  group?: string;
  /** Case-insensitive patterns for how the name is written. */
  aliases: RegExp;
}

const VENDORS: readonly Vendor[] = [
  { name: 'Abcam', aliases: /\babcam\b/i },
  { name: 'Cell Signaling Technology', aliases: /\bcell signa(l|ll)ing( technolog(y|ies))?\b|\bCST\b/i },
  { name: 'Sigma-Aldrich', group: 'Merck', aliases: /\bsigma[\s-]*(aldrich)?\b|\bmillipore\s*sigma\b|\baldrich\b/i },
  {
    name: 'Merck Millipore',
    group: 'Merck',
    aliases: /\bmerck(\s+millipore)?\b|\bmillipore\b|\bemd millipore\b|\bcalbiochem\b|\bnovagen\b/i,
  },
  {
    name: 'Thermo Fisher Scientific',
    group: 'Thermo Fisher Scientific',
    aliases: /\bthermo[\s-]*(fisher|scientific)?(\s+scientific)?\b|\bfisher(\s+scientific)?\b|\bpierce\b|\bthermofisher\b/i,
  },
  { name: 'Invitrogen', group: 'Thermo Fisher Scientific', aliases: /\binvitrogen\b/i },
  { name: 'Gibco', group: 'Thermo Fisher Scientific', aliases: /\bgibco\b/i },
  { name: 'Life Technologies', group: 'Thermo Fisher Scientific', aliases: /\blife\s+technologies\b/i },
  { name: 'Molecular Probes', group: 'Thermo Fisher Scientific', aliases: /\bmolecular\s+probes\b/i },
  { name: 'Applied Biosystems', group: 'Thermo Fisher Scientific', aliases: /\bapplied\s+biosystems\b|\bABI\b/i },
  { name: 'eBioscience', group: 'Thermo Fisher Scientific', aliases: /\bebioscience\b/i },
  { name: 'BioLegend', aliases: /\bbiolegend\b/i },
  {
    name: 'BD Biosciences',
    aliases: /\bBD(\s+(biosciences|pharmingen|bioscience|horizon|falcon))?\b|\bbecton[\s,]+dickinson\b|\bpharmingen\b/i,
  },
  { name: 'Santa Cruz Biotechnology', aliases: /\bsanta\s+cruz(\s+biotechnology)?\b|\bSCBT\b/i },
  { name: 'Proteintech', aliases: /\bproteintech\b/i },
  { name: 'Jackson ImmunoResearch', aliases: /\bjackson\s+immuno\s*research\b|\bjackson\s+(lab(s|oratories)?\s+)?immuno/i },
  { name: 'The Jackson Laboratory', aliases: /\b(the\s+)?jackson\s+lab(oratory|oratories|s)?\b(?!\s+immuno)|\bJAX\b/i },
  { name: 'Addgene', aliases: /\baddgene\b/i },
  { name: 'ATCC', aliases: /\bATCC\b|\bamerican\s+type\s+culture\s+collection\b/i },
  { name: 'Bloomington Drosophila Stock Center', aliases: /\bbloomington(\s+drosophila)?(\s+stock\s+cent(er|re))?\b|\bBDSC\b/i },
  { name: 'Vienna Drosophila Resource Center', aliases: /\bvienna\s+drosophila\s+(rnai|resource)\s+cent(er|re)\b|\bVDRC\b/i },
  { name: 'Kyoto Stock Center', aliases: /\bkyoto(\s+(drosophila|stock))?\s*(stock\s+)?cent(er|re)\b|\bDGGR\b/i },
  { name: 'Developmental Studies Hybridoma Bank', aliases: /\bdevelopmental\s+studies\s+hybridoma\s+bank\b|\bDSHB\b/i },
  { name: 'Caenorhabditis Genetics Center', aliases: /\bcaenorhabditis\s+genetics\s+cent(er|re)\b|\bCGC\b/i },
  { name: 'Charles River', aliases: /\bcharles\s+river(\s+laboratories)?\b/i },
  { name: 'Envigo', aliases: /\benvigo\b|\bharlan\b/i },
  { name: 'Taconic', aliases: /\btaconic\b/i },
  { name: 'Janvier Labs', aliases: /\bjanvier(\s+labs)?\b/i },
  { name: 'R&D Systems', group: 'Bio-Techne', aliases: /\bR\s*&\s*D(\s+systems?)?\b|\bR and D systems\b/i },
  { name: 'Novus Biologicals', group: 'Bio-Techne', aliases: /\bnovus(\s+biologicals?)?\b/i },
  { name: 'Tocris', group: 'Bio-Techne', aliases: /\btocris(\s+bioscience)?\b/i },
  { name: 'Bio-Techne', aliases: /\bbio-?techne\b/i },
  {
    name: 'Advanced Cell Diagnostics',
    group: 'Bio-Techne',
    aliases: /\badvanced\s+cell\s+diagnostics\b|\bACD\s?bio(?:-?techne|sciences)?\b/i,
  },
  { name: 'Qiagen', aliases: /\bqiagen\b/i },
  { name: 'New England Biolabs', aliases: /\bnew\s+england\s+biolabs\b|\bNEB\b/i },
  { name: 'Promega', aliases: /\bpromega\b/i },
  { name: 'Takara Bio', aliases: /\btakara(\s+bio)?\b|\bclontech\b/i },
  { name: 'Bio-Rad', aliases: /\bbio-?\s?rad\b/i },
  { name: 'Roche', aliases: /\broche\b/i },
  { name: 'Illumina', aliases: /\billumina\b/i },
  { name: 'Agilent', aliases: /\bagilent\b|\bdako\b/i },
  { name: 'Zymo Research', aliases: /\bzymo(\s+research)?\b/i },
  { name: 'Selleck Chemicals', aliases: /\bselleck(\s*chem(icals)?)?\b/i },
  { name: 'MedChemExpress', aliases: /\bmedchem\s*express\b|\bMCE\b/i },
  { name: 'Cayman Chemical', aliases: /\bcayman(\s+chemicals?)?\b/i },
  { name: 'GenScript', aliases: /\bgenscript\b/i },
  { name: 'Integrated DNA Technologies', aliases: /\bintegrated\s+dna\s+technologies\b|\bIDT\b/i },
  { name: 'Eurofins', aliases: /\beurofins(\s+genomics)?\b/i },
  { name: 'Horizon Discovery', aliases: /\bhorizon(\s+discovery)?\b|\bdharmacon\b/i },
  { name: 'Miltenyi Biotec', aliases: /\bmiltenyi(\s+biotec)?\b/i },
  { name: 'STEMCELL Technologies', aliases: /\bstem\s?cell\s+technologies\b/i },
  { name: 'PeproTech', group: 'Thermo Fisher Scientific', aliases: /\bpeprotech\b/i },
  { name: 'Corning', aliases: /\bcorning\b/i },
  { name: 'Lonza', aliases: /\blonza\b/i },
  { name: 'Vector Laboratories', aliases: /\bvector\s+lab(oratories|s)?\b/i },
  { name: 'Synaptic Systems', aliases: /\bsynaptic\s*systems\b|\bSYSY\b/i },
  { name: 'Rockland', aliases: /\brockland\b/i },
  { name: 'Bethyl Laboratories', aliases: /\bbethyl(\s+lab(oratories)?)?\b/i },
  { name: 'GeneTex', aliases: /\bgenetex\b/i },
  { name: 'Active Motif', aliases: /\bactive\s+motif\b/i },
  { name: 'Diagenode', aliases: /\bdiagenode\b/i },
  { name: 'Aves Labs', aliases: /\baves(\s+lab(s)?)?\b/i },
  { name: 'ChromoTek', aliases: /\bchromotek\b/i },
  { name: 'Atlas Antibodies', aliases: /\batlas\s+antibodies\b/i },
  { name: 'ABclonal', aliases: /\babclonal\b/i },
  { name: 'Cytiva', aliases: /\bcytiva\b|\bGE\s+healthcare\b|\bamersham\b/i },
  { name: 'Sino Biological', aliases: /\bsino\s*biological\b/i },
  { name: 'ACROBiosystems', aliases: /\bacro\s*biosystems\b/i },
  { name: 'Biotium', aliases: /\bbiotium\b/i },
  { name: 'Enzo Life Sciences', aliases: /\benzo(\s+life\s+sciences)?\b/i },
  { name: 'Beckman Coulter', aliases: /\bbeckman(\s+coulter)?\b/i },
  { name: 'Biosearch Technologies', aliases: /\bbiosearch(\s+technologies)?\b/i },
  { name: 'Lucigen', aliases: /\blucigen\b/i },
  { name: 'Polysciences', aliases: /\bpolysciences\b/i },
  { name: 'Electron Microscopy Sciences', aliases: /\belectron\s+microscopy\s+sciences\b|\bEMS\b/i },
  { name: 'Bio X Cell', aliases: /\bbio\s?x\s?cell\b/i },
  { name: 'Absolute Antibody', aliases: /\babsolute\s+antibody\b/i },
  { name: 'Leica', aliases: /\bleica(\s+(microsystems|biosystems))?\b/i },
  { name: 'Zeiss', aliases: /\b(carl\s+)?zeiss\b/i },
  { name: 'Nikon', aliases: /\bnikon\b/i },
  { name: 'Olympus', aliases: /\bolympus\b|\bevident\b/i },
  { name: 'Ibidi', aliases: /\bibidi\b/i },
  { name: 'VWR', aliases: /\bVWR\b|\bavantor\b/i },
  { name: 'Avanti Polar Lipids', aliases: /\bavanti(\s+polar\s+lipids)?\b/i },
  { name: 'Alfa Aesar', group: 'Thermo Fisher Scientific', aliases: /\balfa\s+aesar\b/i },
  { name: 'Sakura Finetek', aliases: /\bsakura(\s+finetek)?\b/i },
  { name: 'Swant', aliases: /\bswant\b/i },
  { name: 'Warner Instruments', aliases: /\bwarner\s+instruments?\b/i },
  { name: 'Frontier Institute', aliases: /\bfrontier\s+institute\b/i },
  { name: 'Hello Bio', aliases: /\bhello\s?bio\b/i },
  { name: 'Alomone Labs', aliases: /\balomone(\s+labs)?\b/i },
  { name: 'InvivoGen', aliases: /\binvivogen\b/i },
  { name: 'Vectorbuilder', aliases: /\bvector\s?builder\b/i },
  { name: 'Twist Bioscience', aliases: /\btwist(\s+bioscience)?\b/i },
  { name: 'Synthego', aliases: /\bsynthego\b/i },
  { name: 'Bioss', aliases: /\bbioss\b/i },
  { name: 'Boster', aliases: /\bboster(\s+bio)?\b/i },
  { name: 'Biotechne ProteinSimple', group: 'Bio-Techne', aliases: /\bprotein\s?simple\b/i },
  { name: 'Expression Systems', aliases: /\bexpression\s+systems\b/i },
  { name: 'Fujifilm Wako', aliases: /\bwako\b|\bfujifilm\b/i },
  { name: 'Nacalai Tesque', aliases: /\bnacalai(\s+tesque)?\b/i },
  { name: 'Tonbo Biosciences', aliases: /\btonbo\b/i },
  { name: 'Biotrend', aliases: /\bbiotrend\b/i },
  { name: 'Chemicon', group: 'Merck', aliases: /\bchemicon\b/i },
  { name: 'Upstate', group: 'Merck', aliases: /\bupstate\b/i },
  { name: 'Hycult Biotech', aliases: /\bhycult\b/i },
  { name: 'Arcturus', aliases: /\barcturus\b/i },
  { name: 'Addgene viral service', aliases: /\baddgene\s+viral\b/i },
  { name: 'Vigene Biosciences', aliases: /\bvigene\b/i },
  { name: 'UNC Vector Core', aliases: /\bUNC\s+vector\s+core\b/i },
  { name: 'Penn Vector Core', aliases: /\bpenn\s+vector\s+core\b/i },
  { name: 'Thorlabs', aliases: /\bthorlabs\b/i },
  { name: 'Hamamatsu', aliases: /\bhamamatsu\b/i },
  { name: 'GraphPad', aliases: /\bgraph\s?pad\b/i },
  { name: 'MathWorks', aliases: /\bmath\s?works\b/i },
  { name: 'FlowJo LLC', aliases: /\bflowjo,?\s+llc\b|\btree\s?star\b/i },
  { name: '10x Genomics', aliases: /\b10\s?x\s+genomics\b/i },
  { name: 'Oxford Nanopore Technologies', aliases: /\boxford\s+nanopore\b/i },
  { name: 'Pacific Biosciences', aliases: /\bpacific\s+biosciences\b|\bpacbio\b/i },
  { name: 'Biorbyt', aliases: /\bbiorbyt\b/i },
  { name: 'Novogene', aliases: /\bnovogene\b/i },
  { name: 'Macrogen', aliases: /\bmacrogen\b/i },
  { name: 'Genewiz', aliases: /\bgenewiz\b|\bazenta\b/i },
];

// One pass over the text finds where any vendor is written; the vendor's own pattern then decides which one.
const ANY_VENDOR = new RegExp(VENDORS.map((v) => `(?:${v.aliases.source})`).join('|'), 'gi');
const STICKY = VENDORS.map((v) => new RegExp(v.aliases.source, `${v.aliases.flags.replace('g', '')}y`));

/** The vendor written in a text (the earliest mention wins, then the longest), or null. */
export function findVendor(text: string): { vendor: Vendor; index: number; length: number } | null {
  ANY_VENDOR.lastIndex = 0;
  for (let m = ANY_VENDOR.exec(text); m; m = ANY_VENDOR.exec(text)) {
    let best: { vendor: Vendor; index: number; length: number } | null = null;
    VENDORS.forEach((vendor, i) => {
      const sticky = STICKY[i];
      sticky.lastIndex = m!.index;
      const hit = sticky.exec(text);
      if (hit && (!best || hit[0].length > best.length)) best = { vendor, index: m!.index, length: hit[0].length };
    });
    if (best) return best;
    if (m[0].length === 0) ANY_VENDOR.lastIndex++;
  }
  return null;
}

/** Canonical vendor name for a SOURCE text, or the text itself (trimmed) when no vendor is recognised. */
export function canonicalVendor(source: string): string {
  const found = findVendor(source);
  return found ? found.vendor.name : source.trim();
}

/** Comparison key of a vendor: its owner group when known, else its canonical name, folded. */
export function vendorKey(source: string): string {
  const found = findVendor(source);
  const name = found ? (found.vendor.group ?? found.vendor.name) : source;
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\b(inc|ltd|llc|gmbh|co|corp|corporation|company|plc|ag|sa|bv)\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
