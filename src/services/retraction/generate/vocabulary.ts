// Word lists for generated (demo and scale) data. Titles, names, journals, publishers and institutions are
// self-written combinations; country names, ISO codes and regions are plain facts; the subject codes and
// reason labels follow the shape of Retraction Watch's taxonomy without copying records.

export const TITLE_OPENINGS = [
  'Effects of', 'Role of', 'Association between', 'Analysis of', 'Modelling', 'A novel approach to', 'Regulation of', 'Assessment of',
  'Mechanisms of', 'Optimisation of', 'Evaluation of', 'Characterisation of', 'Prediction of', 'Design of', 'Impact of', 'Detection of',
];
export const TITLE_SUBJECTS = [
  'mitochondrial signalling', 'graphene oxide membranes', 'gut microbiota diversity', 'long non-coding RNA expression', 'urban heat islands',
  'supply chain resilience', 'deep convolutional networks', 'tumour-associated macrophages', 'soil carbon storage', 'perovskite solar cells',
  'student engagement', 'oxidative stress markers', 'wind turbine vibration', 'public debt dynamics', 'bone marrow stromal cells',
  'wastewater nitrogen removal', 'insulin resistance', 'blockchain consensus protocols', 'coastal sediment transport', 'nurse staffing levels',
  'zinc oxide nanoparticles', 'microRNA-21 targeting', 'hepatic fibrosis progression', 'rural credit access', 'lithium-ion battery ageing',
  'sleep quality', 'drought tolerance genes', 'image encryption schemes', 'cardiac remodelling', 'green innovation policy',
];
export const TITLE_LINKS = ['in', 'during', 'under', 'among', 'across', 'for', 'through', 'after'];
export const TITLE_CONTEXTS = [
  'patients with type 2 diabetes', 'a rat model of sepsis', 'smallholder farms', 'secondary schools', 'high-speed rail networks',
  'elderly populations', 'breast cancer cell lines', 'emerging economies', 'arid regions', 'intensive care units', 'zebrafish larvae',
  'manufacturing firms', 'chronic kidney disease', 'temperate forests', 'cloud computing environments', 'adolescent athletes',
];
export const TITLE_TAILS = ['', '', '', ': a cohort study', ': a randomised trial', ': evidence from panel data', ': a meta-analysis', ' using machine learning', ': an in vitro study', ': a case study'];

export const GIVEN_FIRST = ['Al', 'Be', 'Ca', 'Da', 'El', 'Fa', 'Ga', 'Ha', 'Il', 'Jo', 'Ka', 'Le', 'Ma', 'No', 'Ol', 'Pe', 'Ra', 'Sa', 'Ta', 'Vi', 'Wen', 'Xi', 'Yo', 'Zo'];
export const GIVEN_SECOND = ['ren', 'mir', 'lan', 'deo', 'via', 'nor', 'ko', 'lie', 'mon', 'rin', 'sha', 'tor', 'vin', 'na', 'lu', 'qiang', 'ming', 'fei'];
export const FAMILY_FIRST = ['Ab', 'Bor', 'Cal', 'Dor', 'Ev', 'Fen', 'Gar', 'Hol', 'Ish', 'Jas', 'Kol', 'Lor', 'Mar', 'Nov', 'Or', 'Pal', 'Quin', 'Ros', 'Sor', 'Tan', 'Ul', 'Val', 'Wes', 'Yan', 'Zel'];
export const FAMILY_SECOND = ['ato', 'berg', 'cott', 'dani', 'ello', 'feld', 'gren', 'hara', 'ivic', 'jima', 'kov', 'lund', 'mura', 'nez', 'ova', 'peri', 'rick', 'sson', 'tani', 'wick', 'zhao', 'ward'];

// Every journal name carries an invented place word, so that no generated retraction is pinned on a real journal.
export const JOURNAL_PATTERNS = ['{w} Journal of {f}', '{w} {f} Letters', '{w} Archives of {f}', '{w} Advances in {f}', '{f} Reports of {w}', '{w} Review of {f}'];
export const JOURNAL_FIELDS = [
  'Cellular Biology', 'Materials Chemistry', 'Clinical Oncology', 'Environmental Engineering', 'Computational Intelligence', 'Public Health',
  'Economic Policy', 'Neuroscience', 'Agricultural Science', 'Biomedical Imaging', 'Energy Systems', 'Educational Research', 'Cardiology',
  'Molecular Medicine', 'Applied Mathematics', 'Nursing Practice',
];
export const PUBLISHERS = [
  'Quillmere Academic Press', 'Thornbeck Science Publishing', 'Harbourline Journals', 'Fennick & Ashvale', 'Copperleaf Scholarly',
  'Brackenholt Research Media', 'Corrandale Open Access', 'Greywater Learned Press',
];
export const DEPARTMENTS = ['Department of Biology', 'School of Medicine', 'College of Engineering', 'Institute of Economics', 'Department of Chemistry', 'School of Nursing', 'Centre for Data Science', 'Department of Physics'];
/** Invented place words for universities and journals. */
export const PLACE_WORDS = ['Rivermoor', 'Quillmere', 'Thornbeck', 'Ashvale', 'Brackenholt', 'Corrandale', 'Fennick', 'Greywater', 'Marrowfield', 'Dunmarsh', 'Elderwick', 'Kestrelby'];

/** Subjects in the Retraction Watch shape "(CODE) Field - Area". */
export const SUBJECTS: [code: string, name: string][] = [
  ['BLS', 'Biology - Cellular'], ['BLS', 'Biology - Molecular'], ['BLS', 'Biology - Cancer'], ['BLS', 'Genetics'], ['BLS', 'Neuroscience'],
  ['BLS', 'Biochemistry'], ['BLS', 'Microbiology'], ['HSC', 'Medicine - Oncology'], ['HSC', 'Medicine - Cardiology'], ['HSC', 'Medicine - Neurology'],
  ['HSC', 'Medicine - Pediatrics'], ['HSC', 'Public Health and Safety'], ['HSC', 'Nursing'], ['HSC', 'Pharmacology'], ['PHY', 'Chemistry'],
  ['PHY', 'Materials Science'], ['PHY', 'Physics - Condensed Matter'], ['ENV', 'Environmental Sciences'], ['ENV', 'Agriculture'],
  ['ENG', 'Engineering - Electrical'], ['ENG', 'Engineering - Mechanical'], ['B/T', 'Computer Science'], ['B/T', 'Technology'],
  ['SOC', 'Education'], ['SOC', 'Economics'], ['SOC', 'Psychology'], ['BUS', 'Business - Management'], ['HUM', 'History'],
];

export const REASONS = [
  'Duplication of Article', 'Falsification/Fabrication of Data', 'Plagiarism of Article', 'Error in Data', 'Concerns/Issues About Data',
  'Investigation by Journal/Publisher', 'Fake Peer Review', 'Paper Mill', 'Computer-Aided Content or Computer-Generated Content',
  'Lack of IRB/IACUC Approval and/or Compliance', 'Error in Analyses', 'Unreliable Results', 'Author Unresponsive', 'Withdrawal',
  'Concerns/Issues about Authorship', 'Notice - Limited or No Information', 'Investigation by Company/Institution', 'Manipulation of Images',
];
export const ARTICLE_TYPES = ['Research Article', 'Research Article', 'Research Article', 'Review Article', 'Conference Abstract/Paper', 'Clinical Study', 'Case Report', 'Letter'];
export const NATURES: [nature: string, weight: number][] = [['Retraction', 87], ['Expression of concern', 7], ['Correction', 4], ['Reinstatement', 2]];

/** Countries (name, ISO 3166-1 alpha-3, region), with a weight for how often generated papers come from them. */
export const COUNTRIES: [name: string, iso3: string, region: string, weight: number][] = [
  ['China', 'CHN', 'East Asia & Pacific', 40], ['United States', 'USA', 'North America', 12], ['India', 'IND', 'South Asia', 9],
  ['Iran', 'IRN', 'Middle East & North Africa', 4], ['Japan', 'JPN', 'East Asia & Pacific', 3], ['United Kingdom', 'GBR', 'Europe & Central Asia', 3],
  ['Germany', 'DEU', 'Europe & Central Asia', 2.5], ['Saudi Arabia', 'SAU', 'Middle East & North Africa', 2.5], ['South Korea', 'KOR', 'East Asia & Pacific', 2.5],
  ['Pakistan', 'PAK', 'South Asia', 2], ['Egypt', 'EGY', 'Middle East & North Africa', 2], ['Italy', 'ITA', 'Europe & Central Asia', 1.5],
  ['Brazil', 'BRA', 'Latin America & Caribbean', 1.5], ['Russia', 'RUS', 'Europe & Central Asia', 1.5], ['Turkey', 'TUR', 'Europe & Central Asia', 1.5],
  ['France', 'FRA', 'Europe & Central Asia', 1], ['Spain', 'ESP', 'Europe & Central Asia', 1], ['Canada', 'CAN', 'North America', 1],
  ['Australia', 'AUS', 'East Asia & Pacific', 1], ['Malaysia', 'MYS', 'East Asia & Pacific', 1], ['Indonesia', 'IDN', 'East Asia & Pacific', 1],
  ['Nigeria', 'NGA', 'Sub-Saharan Africa', 0.8], ['Iraq', 'IRQ', 'Middle East & North Africa', 0.8], ['Netherlands', 'NLD', 'Europe & Central Asia', 0.6],
  ['Poland', 'POL', 'Europe & Central Asia', 0.6], ['Mexico', 'MEX', 'Latin America & Caribbean', 0.5], ['South Africa', 'ZAF', 'Sub-Saharan Africa', 0.5],
  ['Sweden', 'SWE', 'Europe & Central Asia', 0.4], ['Switzerland', 'CHE', 'Europe & Central Asia', 0.4], ['Greece', 'GRC', 'Europe & Central Asia', 0.4],
  ['Thailand', 'THA', 'East Asia & Pacific', 0.4], ['Viet Nam', 'VNM', 'East Asia & Pacific', 0.4], ['Bangladesh', 'BGD', 'South Asia', 0.4],
  ['Argentina', 'ARG', 'Latin America & Caribbean', 0.3], ['Chile', 'CHL', 'Latin America & Caribbean', 0.3], ['Colombia', 'COL', 'Latin America & Caribbean', 0.3],
  ['Kenya', 'KEN', 'Sub-Saharan Africa', 0.3], ['Ethiopia', 'ETH', 'Sub-Saharan Africa', 0.2], ['Ghana', 'GHA', 'Sub-Saharan Africa', 0.2],
  ['Norway', 'NOR', 'Europe & Central Asia', 0.2], ['Denmark', 'DNK', 'Europe & Central Asia', 0.2], ['Finland', 'FIN', 'Europe & Central Asia', 0.2],
  ['Portugal', 'PRT', 'Europe & Central Asia', 0.2], ['Belgium', 'BEL', 'Europe & Central Asia', 0.2], ['Austria', 'AUT', 'Europe & Central Asia', 0.2],
  ['Ireland', 'IRL', 'Europe & Central Asia', 0.2], ['New Zealand', 'NZL', 'East Asia & Pacific', 0.2], ['Singapore', 'SGP', 'East Asia & Pacific', 0.2],
  ['Philippines', 'PHL', 'East Asia & Pacific', 0.2], ['Morocco', 'MAR', 'Middle East & North Africa', 0.2], ['Tunisia', 'TUN', 'Middle East & North Africa', 0.2],
  ['Jordan', 'JOR', 'Middle East & North Africa', 0.2], ['Peru', 'PER', 'Latin America & Caribbean', 0.1], ['Uruguay', 'URY', 'Latin America & Caribbean', 0.1],
  ['Sri Lanka', 'LKA', 'South Asia', 0.1], ['Nepal', 'NPL', 'South Asia', 0.1], ['Uganda', 'UGA', 'Sub-Saharan Africa', 0.1],
  ['Tanzania', 'TZA', 'Sub-Saharan Africa', 0.1], ['Czechia', 'CZE', 'Europe & Central Asia', 0.2], ['Hungary', 'HUN', 'Europe & Central Asia', 0.2],
];
