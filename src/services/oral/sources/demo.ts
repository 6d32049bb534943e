// Demo data for Service A: self-written, generated guidelines, recommendations and reviews for the five
// countries, so that a fresh install answers searches offline. Every record says what it is: guideline and
// review titles and organisation names begin with "Demo", recommendation titles with "Demo:", keys with
// `demo:` (reviews: `DEMO-…`), `is_demo` is true, and no generated record carries a URL, DOI or PMID that
// could be mistaken for a real publication. The same seed gives the same data.

import { Random } from '../../../core/random.ts';
import { deriveKeywords, deriveTitle } from './text.ts';
import type {
  Certainty,
  DowngradesInput,
  GuidelineInput,
  OutcomeInput,
  RecommendationInput,
  ReferenceInput,
  ReviewInput,
} from './types.ts';
import { COUNTRIES, type Country, UK_NATIONS } from './vocabulary.ts';

export interface DemoOptions {
  seed?: number | string;
  guidelines?: number;
  recommendations?: number;
  reviews?: number;
}

export const DEMO_DEFAULTS = { seed: 'demo-oral', guidelines: 12, recommendations: 150, reviews: 20 } as const;

export interface DemoData {
  guidelines: GuidelineInput[];
  reviews: ReviewInput[];
}

const DEMO_KEY_PREFIX = 'demo:';

const ORGANIZATIONS: Record<Country['code'], string> = {
  UK: 'Demo UK Oral Health Working Group',
  US: 'Demo US Dental Evidence Panel',
  CA: 'Demo Canadian Oral Health Panel',
  AU: 'Demo Australian Dental Guidelines Group',
  NZ: 'Demo New Zealand Oral Health Group',
};

// Guideline themes with the topics their recommendations are mostly about.
const THEMES: readonly (readonly [theme: string, topics: readonly string[]])[] = [
  ['Preventing dental caries in children', ['fluoride', 'fissure-sealants', 'diet-and-nutrition', 'prevention']],
  ['Fluoride use in clinical and community settings', ['fluoride', 'prevention']],
  [
    'Oral health for older adults in residential care',
    ['toothbrushing', 'saliva-and-dry-mouth', 'fluoride', 'assessment-and-care-planning'],
  ],
  ['Periodontal health in adults', ['periodontal-health', 'interdental-cleaning', 'toothbrushing']],
  ['Fissure sealant programmes in schools', ['fissure-sealants', 'prevention', 'patient-education']],
  ['Diet, sugar and oral health', ['diet-and-nutrition', 'patient-education']],
  ['Oral cancer awareness in primary dental care', ['oral-cancer-screening', 'tobacco-and-alcohol']],
  ['Tobacco, alcohol and oral health', ['tobacco-and-alcohol', 'behaviour-change']],
  ['Managing dental trauma in children', ['dental-trauma', 'general']],
  ['Toothbrushing programmes in early years settings', ['toothbrushing', 'fluoride', 'behaviour-change']],
  ['Caries risk assessment and recall intervals', ['assessment-and-care-planning', 'prevention', 'fluoride']],
  ['Dry mouth and caries in people taking medicines', ['saliva-and-dry-mouth', 'diet-and-nutrition', 'fluoride']],
];

const POPULATIONS = [
  'children under 3 years',
  'children aged 3 to 6 years',
  'children and young people',
  'adults',
  'older adults in residential care',
  'pregnant women',
  'people with diabetes',
  'adolescents',
];

const CONTEXTS = ['Caries prevention', 'Periodontal disease', 'Primary dental care', 'Community programmes', 'Care homes'];

type Template = (rng: Random, population: string) => string;

// Recommendation texts by topic slug. They read like guidance but are written for this demo only.
const TEMPLATES: Record<string, readonly Template[]> = {
  fluoride: [
    (rng, p) =>
      `Brush teeth twice daily with a fluoride toothpaste containing ${rng.pick(['1,000', '1,450', '1,500'])} ppm fluoride for ${p}.`,
    (rng, p) =>
      `Apply fluoride varnish (2.26% NaF) ${rng.pick(['twice a year', 'two or more times a year', 'every three months'])} for ${p} at increased risk of caries.`,
    (_rng, p) => `Consider a daily fluoride mouth rinse, used at a different time from toothbrushing, for ${p} with active caries.`,
    (_rng, p) => `Advise ${p} to spit out after brushing and not to rinse, so that fluoride stays on the teeth.`,
  ],
  'fissure-sealants': [
    (_rng, p) => `Apply a resin-based fissure sealant to the permanent molars of ${p} soon after eruption to prevent caries.`,
    () => 'Check sealant retention at each recall visit and repair or replace a sealant that has been lost.',
    (_rng, p) => `Use a glass ionomer sealant for ${p} where moisture control is difficult.`,
  ],
  'diet-and-nutrition': [
    (_rng, p) => `Limit sugar-containing foods and drinks to mealtimes for ${p}, to reduce the risk of caries.`,
    (_rng, p) => `Ask for sugar-free versions of medicines for ${p} who take medication long term.`,
    () => 'Give diet advice that focuses on how often sugar is eaten, in line with national healthy eating guidance.',
  ],
  toothbrushing: [
    (_rng, p) => `Supervise toothbrushing for ${p} until they can brush effectively on their own.`,
    () => 'Use a small-headed manual or powered toothbrush and brush all tooth surfaces for about two minutes.',
  ],
  'interdental-cleaning': [(_rng, p) => `Clean between the teeth daily with interdental brushes or floss for ${p} with gum inflammation.`],
  'assessment-and-care-planning': [
    (rng, p) =>
      `Set a recall interval of ${rng.pick(['3 to 12', '6 to 12', '3 to 24'])} months for ${p}, based on caries and periodontal risk.`,
    (_rng, p) => `Record a caries risk assessment for ${p} at every examination and agree a personal care plan.`,
  ],
  'behaviour-change': [
    (_rng, p) => `Use motivational techniques and set goals with ${p} when giving oral hygiene and toothbrushing advice.`,
  ],
  'oral-cancer-screening': [
    (_rng, p) => `Examine the soft tissues of ${p} at every check-up and refer a suspicious lesion urgently for oral cancer assessment.`,
  ],
  'saliva-and-dry-mouth': [
    (_rng, p) => `For ${p} with dry mouth, suggest saliva substitutes and a high-fluoride toothpaste to prevent root caries.`,
  ],
  'patient-education': [() => 'Give parents and carers consistent advice on caries prevention, fluoride toothpaste and sugar.'],
  prevention: [
    (_rng, p) => `Identify ${p} at increased risk of caries early and offer enhanced prevention with fluoride varnish and sealants.`,
  ],
  general: [(_rng, p) => `Make sure ${p} can reach a dental team for regular preventive care.`],
  'periodontal-health': [(_rng, p) => `Remove plaque and calculus for ${p} with gingivitis and review gum health at each recall.`],
  'tobacco-and-alcohol': [(_rng, p) => `Ask ${p} about tobacco and alcohol use and give brief advice on stopping smoking.`],
  'dental-trauma': [(_rng, p) => `Recommend a custom-made mouthguard for ${p} who play contact sports, to prevent dental trauma.`],
};

// Fluoride, sealants and diet are the most common topics of real oral-health guidance; weight them so.
const TOPIC_WEIGHTS: Record<string, number> = {
  fluoride: 6,
  'fissure-sealants': 4,
  'diet-and-nutrition': 4,
  toothbrushing: 3,
  'interdental-cleaning': 2,
  'assessment-and-care-planning': 2,
  'behaviour-change': 1,
  'oral-cancer-screening': 1,
  'saliva-and-dry-mouth': 1,
  'patient-education': 1,
  prevention: 2,
  general: 1,
  'periodontal-health': 2,
  'tobacco-and-alcohol': 1,
  'dental-trauma': 1,
};
const TOPIC_SLUGS = Object.keys(TOPIC_WEIGHTS);

const STRENGTH_WEIGHTS: readonly (readonly [string, number])[] = [
  ['strong', 4],
  ['moderate', 3],
  ['conditional', 3],
  ['weak', 1],
  ['good-practice-point', 1],
];
const QUALITY_WEIGHTS: readonly (readonly [string, number])[] = [
  ['high', 1],
  ['moderate', 4],
  ['low', 3],
  ['very-low', 2],
  ['expert-opinion', 1],
];

function weighted<T>(rng: Random, items: readonly (readonly [T, number])[]): T {
  return items[rng.weightedIndex(items.map(([, w]) => w))][0];
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 0) throw new Error(`demo ${name} must be a non-negative integer, got ${n}`);
  return n;
}

/** How many recommendations each guideline gets: at least one each (when there are enough), the rest at random. */
function allocate(rng: Random, total: number, bins: number): number[] {
  const counts = new Array<number>(bins).fill(0);
  if (bins === 0) return counts;
  let left = total;
  for (let i = 0; i < bins && left > 0; i++, left--) counts[i] = 1;
  const weights = counts.map(() => rng.gamma(2, 1));
  for (; left > 0; left--) counts[rng.weightedIndex(weights)]++;
  return counts;
}

function demoReferences(rng: Random, guidelineTitle: string): ReferenceInput[] {
  const n = rng.int(0, 3);
  return Array.from({ length: n }, (_, k) => ({
    text: `Demo reference ${k + 1} for "${guidelineTitle}": generated for illustration, not a real publication.`,
    url: null,
    doi: null,
    pmid: null,
  }));
}

function generateRecommendation(rng: Random, guidelineTitle: string, themeTopics: readonly string[], number: number): RecommendationInput {
  // Mostly the theme's own topics; now and then any topic, weighted towards the common ones.
  const topic = rng.bool(0.8) ? rng.pick(themeTopics) : TOPIC_SLUGS[rng.weightedIndex(TOPIC_SLUGS.map((slug) => TOPIC_WEIGHTS[slug]))];
  const topics = [topic];
  if (rng.bool(0.3)) {
    const second = rng.pick(TOPIC_SLUGS);
    if (second !== topic) topics.push(second);
  }
  const population = rng.pick(POPULATIONS);
  const text = rng.pick(TEMPLATES[topic])(rng, population);
  const strength = weighted(rng, STRENGTH_WEIGHTS);
  // A good practice point rests on the group's experience, not on graded evidence.
  const evidenceQuality = strength === 'good-practice-point' ? 'expert-opinion' : weighted(rng, QUALITY_WEIGHTS);
  return {
    source_key: `${DEMO_KEY_PREFIX}rec-${String(number).padStart(3, '0')}`,
    title: `Demo: ${deriveTitle(text)}`,
    text,
    keywords: deriveKeywords(text),
    target_population: text.includes(population) ? population.charAt(0).toUpperCase() + population.slice(1) : null,
    clinical_context: rng.bool(0.8) ? rng.pick(CONTEXTS) : null,
    source_url: null,
    page_number: rng.int(3, 120),
    topics,
    strength,
    evidence_quality: evidenceQuality,
    grade: null,
    recommendation_number: String(number),
    references: demoReferences(rng, guidelineTitle),
  };
}

function generateGuidelines(rng: Random, count: number, recommendationTotal: number): GuidelineInput[] {
  const themes = rng.shuffle([...THEMES]);
  const perGuideline = allocate(rng, recommendationTotal, count);
  const guidelines: GuidelineInput[] = [];
  for (let i = 0; i < count; i++) {
    // The first five cover every country once; the rest are drawn at random.
    const country = i < COUNTRIES.length ? COUNTRIES[i] : rng.pick(COUNTRIES);
    const [themeName, themeTopics] = themes[i % themes.length];
    const theme = themeName + (i >= themes.length ? ` (part ${Math.floor(i / themes.length) + 1})` : '');
    const title = `Demo guideline: ${theme}`;
    const recommendations = Array.from({ length: perGuideline[i] }, (_, k) => generateRecommendation(rng, title, themeTopics, k + 1));
    guidelines.push({
      source_key: `${DEMO_KEY_PREFIX}guideline-${String(i + 1).padStart(3, '0')}-${country.code.toLowerCase()}`,
      title,
      description:
        `Generated demo guideline for ${country.name}, not a real publication: ${recommendations.length} ` +
        `recommendations on ${theme.toLowerCase()}, for trying the service without real data.`,
      organization: { name: ORGANIZATIONS[country.code], website: null },
      country: country.code,
      region: country.code === 'UK' ? rng.pick(UK_NATIONS) : null,
      publication_year: rng.int(2010, 2024),
      url: null,
      is_demo: true,
      recommendations,
    });
  }
  return guidelines;
}

interface ReviewSubject {
  intervention: string;
  condition: string;
  population: string;
  comparisons: readonly string[];
  /** Outcomes reported as a ratio (RR, OR) and as a difference (MD, SMD). */
  ratioOutcomes: readonly string[];
  differenceOutcomes: readonly string[];
}

const REVIEW_SUBJECTS: readonly ReviewSubject[] = [
  {
    intervention: 'Fluoride varnish',
    condition: 'preventing caries in children',
    population: 'Children aged 2 to 12 years',
    comparisons: ['placebo', 'no treatment'],
    ratioOutcomes: ['Children with new caries'],
    differenceOutcomes: ['Caries increment (DMFS)', 'Caries increment (dmfs)'],
  },
  {
    intervention: 'Resin-based fissure sealants',
    condition: 'preventing caries in permanent molars',
    population: 'Children and adolescents',
    comparisons: ['no sealant', 'fluoride varnish'],
    ratioOutcomes: ['Sealed teeth with new caries', 'Sealant retention failure'],
    differenceOutcomes: ['Caries increment (DFS)'],
  },
  {
    intervention: 'Powered toothbrushes',
    condition: 'plaque and gingivitis',
    population: 'Adults and children who brush their own teeth',
    comparisons: ['manual toothbrush'],
    ratioOutcomes: ['Adverse events'],
    differenceOutcomes: ['Plaque index', 'Gingival index'],
  },
  {
    intervention: 'Interdental brushes',
    condition: 'gingivitis in adults',
    population: 'Adults with gingivitis',
    comparisons: ['toothbrushing alone', 'dental floss'],
    ratioOutcomes: ['Bleeding on probing'],
    differenceOutcomes: ['Gingival index', 'Plaque index'],
  },
  {
    intervention: 'Sugar reduction advice',
    condition: 'caries in young children',
    population: 'Parents of children under 5 years',
    comparisons: ['usual care'],
    ratioOutcomes: ['Children with new caries'],
    differenceOutcomes: ['Sugar intake (g per day)', 'Caries increment (dmfs)'],
  },
  {
    intervention: 'Silver diamine fluoride',
    condition: 'arresting caries in primary teeth',
    population: 'Children with caries in primary teeth',
    comparisons: ['fluoride varnish', 'placebo'],
    ratioOutcomes: ['Arrested caries lesions', 'Tooth discolouration'],
    differenceOutcomes: ['Number of arrested lesions'],
  },
  {
    intervention: 'Chlorhexidine mouth rinse',
    condition: 'plaque control',
    population: 'Adults with plaque-induced gingivitis',
    comparisons: ['placebo rinse'],
    ratioOutcomes: ['Tooth staining'],
    differenceOutcomes: ['Plaque index', 'Gingival index'],
  },
  {
    intervention: 'Xylitol products',
    condition: 'preventing caries',
    population: 'Children and adults',
    comparisons: ['no xylitol', 'sorbitol products'],
    ratioOutcomes: ['Participants with new caries', 'Adverse events'],
    differenceOutcomes: ['Caries increment (DMFS)'],
  },
  {
    intervention: 'Custom-made mouthguards',
    condition: 'preventing dental trauma in sport',
    population: 'Athletes in contact sports',
    comparisons: ['no mouthguard', 'boil-and-bite mouthguard'],
    ratioOutcomes: ['Participants with dental injuries'],
    differenceOutcomes: ['Comfort score'],
  },
  {
    intervention: 'Saliva substitutes',
    condition: 'dry mouth',
    population: 'Adults with dry mouth',
    comparisons: ['placebo', 'water'],
    ratioOutcomes: ['Adverse events'],
    differenceOutcomes: ['Dry mouth symptom score', 'Saliva flow (mL per minute)'],
  },
  {
    intervention: 'Brief smoking cessation advice in dental settings',
    condition: 'stopping tobacco use',
    population: 'Adult smokers attending dental care',
    comparisons: ['usual care'],
    ratioOutcomes: ['Abstinence at 6 months', 'Quit attempts'],
    differenceOutcomes: ['Cigarettes per day'],
  },
  {
    intervention: 'Community water fluoridation',
    condition: 'caries in populations',
    population: 'Whole communities',
    comparisons: ['no fluoridation'],
    ratioOutcomes: ['Children free of caries', 'Dental fluorosis'],
    differenceOutcomes: ['Change in dmft'],
  },
];
const CERTAINTY_WEIGHTS: readonly (readonly [Certainty, number])[] = [
  ['high', 1],
  ['moderate', 2.5],
  ['low', 3.5],
  ['very_low', 3],
];
const CERTAINTY_LABELS: Record<Certainty, string> = { high: 'High', moderate: 'Moderate', low: 'Low', very_low: 'Very low' };
const DOWNGRADE_DOMAINS = ['risk_of_bias', 'imprecision', 'inconsistency', 'indirectness', 'publication_bias'] as const;
const DOMAIN_WORDS: Record<(typeof DOWNGRADE_DOMAINS)[number], string> = {
  risk_of_bias: 'risk of bias',
  imprecision: 'imprecision',
  inconsistency: 'inconsistency',
  indirectness: 'indirectness',
  publication_bias: 'publication bias',
};

const round2 = (x: number): number => Math.round(x * 100) / 100;

function generateOutcome(rng: Random, subject: ReviewSubject): OutcomeInput {
  const ratio = rng.bool(0.55);
  const measure = ratio ? rng.pick(['RR', 'OR']) : rng.pick(['MD', 'SMD']);
  const standardError = 0.05 + rng.gamma(2, 10);
  const centre = ratio ? rng.normal(-0.2, 0.3) : rng.normal(-0.4, 0.5);
  const toScale = ratio ? Math.exp : (x: number) => x;
  const effect = round2(toScale(centre));
  const ciLower = round2(toScale(centre - 1.96 * standardError));
  const ciUpper = round2(toScale(centre + 1.96 * standardError));
  const noEffect = ratio ? 1 : 0;
  const certainty = weighted(rng, CERTAINTY_WEIGHTS);
  const levelsDown = { high: 0, moderate: 1, low: 2, very_low: 3 }[certainty];
  const downgraded = new Set(rng.shuffle([...DOWNGRADE_DOMAINS]).slice(0, levelsDown));
  const downgrades: DowngradesInput = {
    risk_of_bias: downgraded.has('risk_of_bias'),
    imprecision: downgraded.has('imprecision'),
    inconsistency: downgraded.has('inconsistency'),
    indirectness: downgraded.has('indirectness'),
    publication_bias: downgraded.has('publication_bias'),
    incoherence: null,
  };
  const studies = rng.int(1, 25);
  return {
    population: subject.population,
    intervention: subject.intervention,
    comparison: rng.pick(subject.comparisons),
    outcome: rng.pick(ratio ? subject.ratioOutcomes : subject.differenceOutcomes),
    measure,
    effect,
    ci_lower: ciLower,
    ci_upper: ciUpper,
    significant: ciUpper < noEffect || ciLower > noEffect,
    participants: studies * rng.int(30, 400),
    studies,
    certainty,
    certainty_raw: CERTAINTY_LABELS[certainty],
    reasons:
      downgraded.size === 0
        ? null
        : `Demo: downgraded for ${DOWNGRADE_DOMAINS.filter((d) => downgraded.has(d))
            .map((d) => DOMAIN_WORDS[d])
            .join(' and ')}.`,
    downgrades,
  };
}

function generateReviews(rng: Random, count: number): ReviewInput[] {
  const subjects = rng.shuffle([...REVIEW_SUBJECTS]);
  return Array.from({ length: count }, (_, i) => {
    const subject = subjects[i % subjects.length];
    const { intervention, condition } = subject;
    const variant = i >= subjects.length ? ` (demo variant ${Math.floor(i / subjects.length) + 1})` : '';
    const outcomes = Array.from({ length: rng.int(2, 7) }, () => generateOutcome(rng, subject));
    const year = rng.int(2008, 2024);
    return {
      review_id: `DEMO-${String(i + 1).padStart(3, '0')}`,
      version: rng.int(1, 4),
      title: `Demo review: ${intervention} for ${condition}${variant}`,
      url: null,
      doi: null,
      publication_date: `${year}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
      authors: 'Demo data (generated; no authors)',
      abstract:
        `Generated demo record, not a real systematic review. It summarises ${outcomes.length} made-up outcomes ` +
        `comparing ${intervention.toLowerCase()} with a control for ${condition}, in the style of a Cochrane ` +
        'summary of findings, so that review searches return results without real data.',
      is_demo: true,
      outcomes,
    };
  });
}

/** Generates the demo data set; the same options (and seed) give the same records. */
export function generateDemo(options: DemoOptions = {}): DemoData {
  const seed = options.seed ?? DEMO_DEFAULTS.seed;
  const guidelineCount = positiveInt(options.guidelines, DEMO_DEFAULTS.guidelines, 'guidelines');
  const recommendationCount = positiveInt(options.recommendations, DEMO_DEFAULTS.recommendations, 'recommendations');
  const reviewCount = positiveInt(options.reviews, DEMO_DEFAULTS.reviews, 'reviews');
  if (recommendationCount > 0 && guidelineCount === 0) throw new Error('demo recommendations need at least one guideline');
  const root = new Random(seed);
  // Separate streams, so that changing the number of reviews does not change the guidelines, and back.
  const guidelineRng = root.fork('guidelines');
  const reviewRng = root.fork('reviews');
  return {
    guidelines: generateGuidelines(guidelineRng, guidelineCount, recommendationCount),
    reviews: generateReviews(reviewRng, reviewCount),
  };
}
