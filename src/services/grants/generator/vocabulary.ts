// Self-written vocabularies for the generated grants data set. Organisation codes and titles are the federal
// departments' own public identifiers; department numbers (DDD), programs, recipients, titles and texts are
// made up here. City populations are rounded 2021 Census figures, used only as sampling weights.
import type { ProvinceCode } from '../source/provinces.ts';
import type { RecipientType } from '../source/record.ts';

export interface Department {
  ownerOrg: string;
  titleEn: string;
  titleFr: string;
  number: string; // DDD of the reference number (self-assigned)
  weight: number; // share of agreements
  programs: Program[];
  recipientTypes: Partial<Record<RecipientType, number>>;
}

export interface Program {
  nameEn: string;
  nameFr: string;
  purposeEn: string;
  agreementType: 'G' | 'C' | 'O';
}

const p = (nameEn: string, nameFr: string, purposeEn: string, agreementType: 'G' | 'C' | 'O' = 'C'): Program => ({ nameEn, nameFr, purposeEn, agreementType });

export const DEPARTMENTS: readonly Department[] = [
  {
    ownerOrg: 'esdc-edsc', titleEn: 'Employment and Social Development Canada', titleFr: 'Emploi et Développement social Canada', number: '130', weight: 22,
    programs: [
      p('Summer Work Experience', 'Expérience de travail d’été', 'Helps employers create summer jobs so that young people gain work experience, skills and income.'),
      p('Community Accessibility Fund', 'Fonds pour l’accessibilité communautaire', 'Supports construction and renovation projects that improve accessibility in communities and workplaces.'),
      p('Skills for Tomorrow', 'Compétences de demain', 'Funds projects that help workers upgrade their skills and adapt to a changing labour market.'),
      p('Seniors Community Program', 'Programme communautaire des aînés', 'Supports projects led or inspired by seniors that improve their well-being and social participation.', 'G'),
    ],
    recipientTypes: { N: 50, F: 30, G: 10, A: 5, S: 5, O: 2 },
  },
  {
    ownerOrg: 'nserc-crsng', titleEn: 'Natural Sciences and Engineering Research Council of Canada', titleFr: 'Conseil de recherches en sciences naturelles et en génie du Canada', number: '086', weight: 14,
    programs: [
      p('Discovery Research Grants', 'Subventions de recherche à la découverte', 'Supports ongoing programs of research in the natural sciences and engineering.', 'G'),
      p('Industry Research Partnerships', 'Partenariats de recherche avec l’industrie', 'Funds research collaborations between universities and companies.', 'G'),
      p('Graduate Scholarships', 'Bourses d’études supérieures', 'Supports high-calibre students in master’s and doctoral programs.', 'G'),
    ],
    recipientTypes: { S: 80, P: 15, N: 5 },
  },
  {
    ownerOrg: 'sshrc-crsh', titleEn: 'Social Sciences and Humanities Research Council of Canada', titleFr: 'Conseil de recherches en sciences humaines du Canada', number: '088', weight: 7,
    programs: [
      p('Insight Research Grants', 'Subventions de recherche Savoir', 'Supports research that builds knowledge about people, societies and the world.', 'G'),
      p('Partnership Development Grants', 'Subventions de développement de partenariat', 'Supports new partnerships between researchers and organisations.', 'G'),
    ],
    recipientTypes: { S: 85, P: 10, N: 5 },
  },
  {
    ownerOrg: 'cihr-irsc', titleEn: 'Canadian Institutes of Health Research', titleFr: 'Instituts de recherche en santé du Canada', number: '089', weight: 6,
    programs: [
      p('Project Grants in Health Research', 'Subventions Projet en recherche en santé', 'Supports health research projects proposed by researchers in all areas of health.', 'G'),
      p('Clinical Trials Fund', 'Fonds pour les essais cliniques', 'Funds clinical trials that test new treatments and models of care.', 'G'),
    ],
    recipientTypes: { S: 85, N: 10, P: 5 },
  },
  {
    ownerOrg: 'pch', titleEn: 'Canadian Heritage', titleFr: 'Patrimoine canadien', number: '034', weight: 10,
    programs: [
      p('Local Arts and Heritage Events', 'Événements locaux des arts et du patrimoine', 'Supports local festivals, commemorations and events that celebrate arts and heritage.', 'G'),
      p('Official Languages Community Life', 'Vie communautaire des langues officielles', 'Supports organisations that serve official-language minority communities.'),
      p('Community Sport Participation', 'Participation au sport communautaire', 'Increases participation in sport, especially among under-represented groups.'),
      p('Periodical and News Innovation', 'Innovation pour les périodiques et les nouvelles', 'Helps publishers and news organisations reach readers and adapt to digital change.'),
    ],
    recipientTypes: { N: 75, F: 15, G: 5, A: 5 },
  },
  {
    ownerOrg: 'ised-isde', titleEn: 'Innovation, Science and Economic Development Canada', titleFr: 'Innovation, Sciences et Développement économique Canada', number: '230', weight: 6,
    programs: [
      p('Strategic Industry Investment', 'Investissement industriel stratégique', 'Supports large business investments in innovation, manufacturing and research and development.'),
      p('Connecting Communities Broadband', 'Brancher les collectivités à large bande', 'Extends high-speed internet to rural and remote communities.'),
      p('Digital Adoption for Business', 'Adoption du numérique pour les entreprises', 'Helps small and medium-sized businesses adopt digital technologies.', 'G'),
    ],
    recipientTypes: { F: 75, N: 15, S: 5, G: 5 },
  },
  {
    ownerOrg: 'dfatd-maecd', titleEn: 'Global Affairs Canada', titleFr: 'Affaires mondiales Canada', number: '012', weight: 5,
    programs: [
      p('International Development Assistance', 'Aide au développement international', 'Reduces poverty and improves health, education and livelihoods in developing countries.'),
      p('Humanitarian Response', 'Intervention humanitaire', 'Provides life-saving assistance in conflicts and natural disasters.', 'G'),
      p('Trade Commissioner Partnerships', 'Partenariats du Délégué commercial', 'Helps Canadian organisations develop international markets.'),
    ],
    recipientTypes: { I: 55, N: 35, S: 5, F: 5 },
  },
  {
    ownerOrg: 'isc-sac', titleEn: 'Indigenous Services Canada', titleFr: 'Services aux Autochtones Canada', number: '310', weight: 6,
    programs: [
      p('Community Infrastructure', 'Infrastructure communautaire', 'Funds water, housing, school and road infrastructure in First Nations communities.'),
      p('Health Services Integration', 'Intégration des services de santé', 'Supports community-led health services and their integration with provincial systems.'),
      p('Education Partnerships', 'Partenariats en éducation', 'Supports First Nations control of education and student success.'),
    ],
    recipientTypes: { A: 85, N: 10, G: 5 },
  },
  {
    ownerOrg: 'aafc-aac', titleEn: 'Agriculture and Agri-Food Canada', titleFr: 'Agriculture et Agroalimentaire Canada', number: '001', weight: 5,
    programs: [
      p('Agricultural Clean Technology', 'Technologies propres en agriculture', 'Helps farms and processors adopt clean technologies that cut emissions.'),
      p('Local Food Infrastructure', 'Infrastructure alimentaire locale', 'Improves access to safe, healthy and culturally diverse food in communities.', 'G'),
      p('Agri-Marketing', 'Agri-marketing', 'Helps industry associations grow exports of Canadian food and agricultural products.'),
    ],
    recipientTypes: { F: 55, N: 35, A: 5, S: 5 },
  },
  {
    ownerOrg: 'nrcan-rncan', titleEn: 'Natural Resources Canada', titleFr: 'Ressources naturelles Canada', number: '115', weight: 4,
    programs: [
      p('Clean Energy for Remote Communities', 'Énergie propre pour les collectivités éloignées', 'Reduces reliance on diesel in rural and remote communities.'),
      p('Energy Innovation', 'Innovation énergétique', 'Funds research, development and demonstration of clean energy technologies.'),
      p('Forest Innovation', 'Innovation forestière', 'Supports new products and processes in the forest sector.'),
    ],
    recipientTypes: { F: 50, N: 20, S: 15, A: 10, G: 5 },
  },
  {
    ownerOrg: 'ec', titleEn: 'Environment and Climate Change Canada', titleFr: 'Environnement et Changement climatique Canada', number: '022', weight: 3,
    programs: [
      p('Nature Conservation Fund', 'Fonds pour la conservation de la nature', 'Protects habitat and species at risk through local conservation projects.'),
      p('Climate Action Fund', 'Fonds d’action pour le climat', 'Supports projects that raise awareness of climate change and reduce emissions.', 'G'),
    ],
    recipientTypes: { N: 65, A: 15, S: 10, G: 10 },
  },
  {
    ownerOrg: 'acoa-apeca', titleEn: 'Atlantic Canada Opportunities Agency', titleFr: 'Agence de promotion économique du Canada atlantique', number: '259', weight: 3,
    programs: [
      p('Regional Business Development', 'Développement des entreprises régionales', 'Helps Atlantic businesses start, grow and become more productive.'),
      p('Community Economic Development', 'Développement économique des collectivités', 'Supports communities in building their economic base.'),
    ],
    recipientTypes: { F: 65, N: 30, G: 5 },
  },
  {
    ownerOrg: 'wd-deo', titleEn: 'Prairies Economic Development Canada', titleFr: 'Développement économique Canada pour les Prairies', number: '262', weight: 2,
    programs: [
      p('Business Scale-up and Productivity', 'Croissance des entreprises et productivité', 'Helps high-growth businesses scale up and compete.'),
      p('Regional Innovation Ecosystems', 'Écosystèmes régionaux d’innovation', 'Supports organisations that help businesses innovate.'),
    ],
    recipientTypes: { F: 60, N: 40 },
  },
  {
    ownerOrg: 'cic', titleEn: 'Immigration, Refugees and Citizenship Canada', titleFr: 'Immigration, Réfugiés et Citoyenneté Canada', number: '055', weight: 3,
    programs: [
      p('Settlement Services', 'Services d’établissement', 'Helps newcomers settle, find work and take part in their communities.'),
      p('Resettlement Assistance', 'Aide à la réinstallation', 'Supports the immediate needs of resettled refugees.'),
    ],
    recipientTypes: { N: 85, S: 10, G: 5 },
  },
  {
    ownerOrg: 'hc-sc', titleEn: 'Health Canada', titleFr: 'Santé Canada', number: '040', weight: 2,
    programs: [
      p('Substance Use and Addictions', 'Usage de substances et dépendances', 'Funds evidence-based prevention, harm reduction and treatment projects.'),
      p('Health Care Policy Contributions', 'Contributions à la politique des soins de santé', 'Supports projects that improve the health care system.'),
    ],
    recipientTypes: { N: 70, S: 20, G: 10 },
  },
  {
    ownerOrg: 'tc', titleEn: 'Transport Canada', titleFr: 'Transports Canada', number: '081', weight: 1.5,
    programs: [
      p('Trade and Transportation Corridors', 'Corridors de commerce et de transport', 'Invests in ports, rail and roads that move goods to market.'),
      p('Zero-Emission Vehicle Infrastructure', 'Infrastructure pour les véhicules à zéro émission', 'Funds charging and refuelling stations for zero-emission vehicles.'),
    ],
    recipientTypes: { F: 50, G: 35, N: 15 },
  },
  {
    ownerOrg: 'infc', titleEn: 'Housing, Infrastructure and Communities Canada', titleFr: 'Logement, Infrastructures et Collectivités Canada', number: '289', weight: 1.5,
    programs: [
      p('Green and Inclusive Community Buildings', 'Bâtiments communautaires verts et inclusifs', 'Funds retrofits and new community buildings that are greener and more accessible.'),
      p('Reaching Home', 'Vers un chez-soi', 'Supports community-based efforts to prevent and reduce homelessness.'),
    ],
    recipientTypes: { G: 45, N: 45, A: 10, O: 3 },
  },
  {
    ownerOrg: 'wage-fegc', titleEn: 'Women and Gender Equality Canada', titleFr: 'Femmes et Égalité des genres Canada', number: '320', weight: 1.5,
    programs: [
      p('Women’s Program', 'Programme de promotion de la femme', 'Supports projects that advance equality for women.'),
      p('Gender-Based Violence Program', 'Programme contre la violence fondée sur le sexe', 'Funds organisations that prevent and respond to gender-based violence.'),
    ],
    recipientTypes: { N: 90, A: 10 },
  },
  {
    ownerOrg: 'dfo-mpo', titleEn: 'Fisheries and Oceans Canada', titleFr: 'Pêches et Océans Canada', number: '020', weight: 1.5,
    programs: [
      p('Coastal Restoration Fund', 'Fonds de restauration côtière', 'Restores aquatic habitat on Canada’s coasts.'),
      p('Fisheries Innovation', 'Innovation dans les pêches', 'Supports innovation and infrastructure in the fish and seafood sector.'),
    ],
    recipientTypes: { N: 40, F: 40, A: 20 },
  },
];

export interface City {
  nameEn: string;
  nameFr?: string;
  province: ProvinceCode;
  population: number;
}

const c = (nameEn: string, province: ProvinceCode, population: number, nameFr?: string): City => ({ nameEn, province, population, nameFr });

export const CITIES: readonly City[] = [
  c('Toronto', 'ON', 2_794_000), c('Ottawa', 'ON', 1_017_000), c('Mississauga', 'ON', 717_000), c('Brampton', 'ON', 656_000),
  c('Hamilton', 'ON', 569_000), c('London', 'ON', 422_000), c('Markham', 'ON', 338_000), c('Kitchener', 'ON', 256_000),
  c('Windsor', 'ON', 229_000), c('Sudbury', 'ON', 166_000, 'Grand Sudbury'), c('Kingston', 'ON', 132_000), c('Thunder Bay', 'ON', 109_000),
  c('Montréal', 'QC', 1_763_000), c('Québec', 'QC', 550_000), c('Laval', 'QC', 438_000), c('Gatineau', 'QC', 291_000),
  c('Longueuil', 'QC', 254_000), c('Sherbrooke', 'QC', 173_000), c('Saguenay', 'QC', 145_000), c('Trois-Rivières', 'QC', 140_000),
  c('Rimouski', 'QC', 49_000),
  c('Vancouver', 'BC', 662_000), c('Surrey', 'BC', 569_000), c('Burnaby', 'BC', 249_000), c('Richmond', 'BC', 209_000),
  c('Kelowna', 'BC', 145_000), c('Victoria', 'BC', 92_000), c('Nanaimo', 'BC', 99_000), c('Prince George', 'BC', 77_000),
  c('Calgary', 'AB', 1_306_000), c('Edmonton', 'AB', 1_011_000), c('Red Deer', 'AB', 101_000), c('Lethbridge', 'AB', 99_000),
  c('Grande Prairie', 'AB', 64_000),
  c('Winnipeg', 'MB', 749_000), c('Brandon', 'MB', 51_000), c('Thompson', 'MB', 13_000),
  c('Saskatoon', 'SK', 266_000), c('Regina', 'SK', 226_000), c('Prince Albert', 'SK', 37_000), c('Moose Jaw', 'SK', 33_000),
  c('Halifax', 'NS', 440_000), c('Sydney', 'NS', 30_000), c('Truro', 'NS', 13_000),
  c('Moncton', 'NB', 79_000), c('Saint John', 'NB', 69_000), c('Fredericton', 'NB', 63_000), c('Edmundston', 'NB', 16_000),
  c('St. John’s', 'NL', 111_000), c('Corner Brook', 'NL', 20_000), c('Happy Valley-Goose Bay', 'NL', 8_000),
  c('Charlottetown', 'PE', 39_000), c('Summerside', 'PE', 16_000),
  c('Whitehorse', 'YT', 28_000), c('Dawson', 'YT', 1_600),
  c('Yellowknife', 'NT', 20_000), c('Inuvik', 'NT', 3_100), c('Hay River', 'NT', 3_200),
  c('Iqaluit', 'NU', 7_400), c('Rankin Inlet', 'NU', 2_900), c('Cambridge Bay', 'NU', 1_800),
];

/** First letter of Canadian postal codes by province (Ontario and Quebec have several). */
export const POSTAL_PREFIX: Readonly<Record<ProvinceCode, string>> = {
  NL: 'A', NS: 'B', PE: 'C', NB: 'E', QC: 'GHJ', ON: 'KLMNP', MB: 'R', SK: 'S', AB: 'T', BC: 'V', NT: 'X', NU: 'X', YT: 'Y',
};

export const FOREIGN_CITIES: ReadonlyArray<{ city: string; country: string }> = [
  { city: 'Nairobi', country: 'KE' }, { city: 'Geneva', country: 'CH' }, { city: 'New York', country: 'US' },
  { city: 'London', country: 'GB' }, { city: 'Paris', country: 'FR' }, { city: 'Dakar', country: 'SN' },
  { city: 'Dhaka', country: 'BD' }, { city: 'Kyiv', country: 'UA' }, { city: 'Port-au-Prince', country: 'HT' },
  { city: 'Amman', country: 'JO' }, { city: 'Bogotá', country: 'CO' }, { city: 'Addis Ababa', country: 'ET' },
];

export const NAME_WORDS = {
  businessPrefix: ['Maple', 'Northern', 'Boreal', 'Prairie', 'Coastal', 'True North', 'Laurentian', 'Pacific', 'Atlantic', 'Summit', 'Granite', 'Cedar', 'Aurora', 'Polar', 'Red River', 'Silver Birch', 'Bluewater', 'Great Lakes', 'Fundy', 'Rocky Mountain'],
  businessCore: ['Robotics', 'Aquaculture', 'Software', 'Foods', 'Biotech', 'Composites', 'Energy Systems', 'Analytics', 'Manufacturing', 'Organics', 'Logistics', 'Photonics', 'Timber Products', 'Seafood', 'Clean Tech', 'Medical Devices', 'Games', 'Textiles', 'Precision Machining', 'Hydrogen'],
  businessSuffix: ['Inc.', 'Ltd.', 'Corp.', 'Limited', 'Co-operative', 'Inc.|Inc.', 'Ltd.|Ltée'],
  nonprofitTopic: ['Food Bank', 'Youth Arts', 'Literacy', 'Newcomer Services', 'Seniors’ Centre', 'Women’s Shelter', 'Multicultural', 'Watershed', 'Historical', 'Community Health', 'Minor Hockey', 'Film Festival', 'Francophone', 'Disability Rights', 'Housing', 'Music Festival', 'Environmental', 'Family Resource', 'Pride', 'Heritage'],
  nonprofitForm: ['Society', 'Association', 'Foundation', 'Council', 'Centre', 'Network', 'Coalition', 'Alliance'],
  academicForm: ['University of {city}', '{city} Community College', '{province} Institute of Technology', 'Collège communautaire de {city}', '{city} Polytechnic', 'University of {city} Health Sciences Centre'],
  indigenousPlace: ['Cedar River', 'Eagle Lake', 'Wolf Point', 'Sturgeon Bay', 'Bear Creek', 'Thunder Hills', 'Caribou Lake', 'Whitefish Bay', 'Raven Rock', 'Muskrat Falls', 'Moose Hide', 'Birch Island'],
  indigenousForm: ['First Nation', 'Métis Association', 'Inuit Association', 'Tribal Council', 'Band Council', 'Friendship Centre'],
  governmentForm: ['City of {city}', 'Town of {city}', 'Regional Municipality of {city}', 'Government of {provinceName}', '{city} Public Library Board', '{city} Regional Health Authority'],
  internationalNames: ['Global Water Partnership Foundation', 'International Child Health Alliance', 'World Food Relief Network', 'Sahel Education Trust', 'Coalition for Maternal Health', 'Humanitarian Logistics International', 'Refugee Education Fund', 'Clean Cookstoves Initiative'],
  otherNames: ['Joint Venture Partners', 'Community Trust', 'Regional Round Table', 'Co-operative Federation'],
  givenNames: ['Amira', 'Benoît', 'Chloé', 'Daniel', 'Emily', 'François', 'Gurpreet', 'Hannah', 'Isabelle', 'Jian', 'Kwame', 'Laura', 'Mohammed', 'Nathalie', 'Olivia', 'Pierre', 'Priya', 'Raphaël', 'Sarah', 'Thomas', 'Wei', 'Yasmin'],
  familyNames: ['Tremblay', 'Smith', 'Gagnon', 'Wong', 'Singh', 'Roy', 'Martin', 'Brown', 'Nguyen', 'Côté', 'Li', 'Campbell', 'Bouchard', 'Patel', 'Anderson', 'Lavoie', 'Kaur', 'MacDonald', 'Okafor', 'Chen'],
};

/** Titles: "{action} {object}" with optional " in {city}"; objects that contain a rule keyword are marked. */
export const TITLE_ACTIONS = ['Expanding', 'Building', 'Improving', 'Launching', 'Strengthening', 'Modernizing', 'Developing', 'Supporting', 'Piloting', 'Renewing'];

export const TITLE_OBJECTS: readonly string[] = [
  'mental health services for rural youth', 'accessible entrances and washrooms', 'a community kitchen', 'digital skills training',
  'employment pathways for newcomers', 'a seniors’ day program', 'wastewater treatment capacity', 'broadband access for remote homes',
  'after-school literacy programs', 'a regional food hub', 'clean technology for greenhouses', 'a research chair in ocean science',
  'sustainable forestry practices', 'housing for people leaving shelters', 'French-language early childhood services',
  'Indigenous language revitalization', 'coastal habitat restoration', 'small business exports', 'a heritage building retrofit',
  'youth sport participation', 'clinical trials in pediatric oncology', 'apprenticeships in the skilled trades',
  'solar power for a community centre', 'supports for survivors of violence', 'a makerspace for young entrepreneurs',
];

/** Objects with notable keywords (whole words), and near misses that must not match (keyword inside a word). */
export const TITLE_OBJECTS_NOTABLE: readonly string[] = [
  'the annual community gala', 'a summer music festival', 'pipeline safety monitoring', 'newspaper digitization',
  'COVID-19 emergency support', 'consultant review of operations', 'a public art mural', 'a trade mission to Asia',
  'machine learning for crop yields', 'automotive parts manufacturing', 'an oil sands reclamation study', 'a podcast series on local history',
];
export const TITLE_OBJECTS_NEAR_MISS: readonly string[] = [
  'galaxy observation nights for students', 'pipelined data processing for hospitals', 'festivalgoer safety research',
  'coalition building among farm groups', 'travelling exhibits of regional art',
];

export const DESCRIPTION_SENTENCES: readonly string[] = [
  'The project will serve an estimated {n} participants over its duration.',
  'Activities include outreach, training sessions, and an evaluation of results.',
  'The recipient will hire {k} staff, including a coordinator and two facilitators.',
  'Funding covers equipment, renovations, and operating costs for the first year.',
  'The organization will partner with local schools, businesses and municipal services.',
  'Results will be shared through a public report, workshops and an online toolkit.',
  'This agreement supports the "{program}" objectives in {city}.',
  'Work is delivered in both official languages where demand exists.',
];

export const EXPECTED_RESULTS: readonly string[] = [
  'Participants gain skills and experience that improve their employment prospects.',
  'Improved access to services for the people the project serves.',
  'New knowledge is created and shared with partners and the public.',
  'Reduced greenhouse gas emissions and lower operating costs.',
  'Stronger community organisations and more volunteer participation.',
  'Increased sales, exports and jobs at participating businesses.',
];
