// The calculator's formulas in prose, for the OpenAPI description of POST /api/calculate/ and the calculator's
// page (one place: the code in tax.ts, aggregates.ts and calculate.ts implements exactly this), in English and, for
// the French page, in French: the same formulas, paragraph for paragraph, with the API's field names as written.
import { FEDERAL_REVENUES, FEDERAL_TAX_YEARS, GST_RATE_PER_MILLE } from './constants.ts';
import { MAX_SPAN_YEARS, TOP_GRANTS, TOP_PROJECTS_PER_YEAR } from './aggregates.ts';
import { fiscalYearInFull } from '../source/fiscal-year.ts';

const firstRevenue = FEDERAL_REVENUES[0].label;
const lastRevenue = FEDERAL_REVENUES[FEDERAL_REVENUES.length - 1].label;
// the French text writes fiscal years in full (exercice 2014-2015)
const firstRevenueFr = fiscalYearInFull(FEDERAL_REVENUES[0].fiscalYear);
const lastRevenueFr = fiscalYearInFull(FEDERAL_REVENUES[FEDERAL_REVENUES.length - 1].fiscalYear);
const firstTax = FEDERAL_TAX_YEARS[0].year;
const lastTax = FEDERAL_TAX_YEARS[FEDERAL_TAX_YEARS.length - 1].year;

export const CALCULATOR_FORMULAS_MARKDOWN = `
**How the taxpayer's share is calculated**

*Inputs.* \`annual_income\` (required, ≥ 0) and \`gst_eligible_spending\` (default 0, ≥ 0) are dollars; with
\`input_mode: "monthly"\` both are per month and are multiplied by 12. Amounts are converted to whole cents
(half up) and all money arithmetic is exact.

*Years.* A year \`y\` is the federal fiscal year that starts on April 1 of \`y\` (2018 = 2018-19). The
**current year** is the last fiscal year in the data that has a published federal revenue figure (sourced
figures cover ${firstRevenue} to ${lastRevenue}), unless the service is configured otherwise; it never
depends on the date of the request. \`taxpayer_since_year\` (default 2018) must lie between the first fiscal
year in the data (but not before ${firstRevenue}) and the current year.

*Federal income tax* (tax year = the calendar year in which the current fiscal year starts, within the CRA
tables ${firstTax}–${lastTax}):
\`federal_income_tax = max(0, Σ_brackets rate_b × portion of income in bracket b − lowest_rate × BPA)\`.
From 2020, \`BPA = BPA_max − (BPA_max − BPA_min) × (income − t₂₉) / (t₃₃ − t₂₉)\`, clamped to
[BPA_min, BPA_max], where t₂₉ and t₃₃ are the lower bounds of the 29% and 33% brackets. The result is rounded
half up to the cent once, at the end. No provincial tax, deductions or other credits.

*GST:* \`gst_paid = ${GST_RATE_PER_MILLE / 10}% × gst_eligible_spending\` (half up to the cent).

*Contribution:* \`C = total_tax_contribution = federal_income_tax + gst_paid\`.

*Share of a federal dollar in year y:* \`rate(y) = C / federal_revenue(y)\` (Public Accounts of Canada
total revenues). \`revenue_share_percentage = rate(current) × 100\`.

*Annual value of a grant:* its current value (the highest amendment) spread evenly, in whole cents, over the
fiscal years from its start date to its end date (one year when the end date is missing or earlier than the
start; at most ${MAX_SPAN_YEARS} years); leftover cents go to the earliest years.

*Per year:* \`share(y) = rate(y) × Σ annual values of grants running in y\`.
\`yearly_breakdown\` lists \`share(y)\` for every y from \`taxpayer_since_year\` to the current year, with the
number of grants running and the top ${TOP_PROJECTS_PER_YEAR} projects by annual value (each with
\`user_share = rate(y) × annual_value\`). \`grants_portion_of_taxes = share(current)\`.
\`total_grants_share = Σ_y share(y)\` over the breakdown.

*Per grant:* \`user_share(g) = Σ_{y = since..current} rate(y) × annual_value_g(y)\`; \`grant_shares\` are the
${TOP_GRANTS} grants with the largest \`user_share\` (ties: lower id first).

*Projections* (the 5 fiscal years after the current year; revenue of a year without a published figure =
the latest published figure): \`continuing_only(y) = rate(y) × Σ annual values in y of grants already
agreed\`. \`historical_average = mean over y = since..current of rate(y) × (annual value in y of grants that
start in y)\`. \`with_new_projects(y) = continuing_only(y) + historical_average\`.

*Display:* every \`*_formatted\` field is \`$1,234.56\` (negative \`-$1,234.56\`), rounded half away from zero
to the cent from the amount's shortest decimal representation.
`.trim();

/** CALCULATOR_FORMULAS_MARKDOWN in French, for the French calculator page (the API's names stay as the API writes them). */
export const CALCULATOR_FORMULAS_MARKDOWN_FR = `
**Comment la part du contribuable est calculée**

*Données entrées.* \`annual_income\` (obligatoire, ≥ 0) et \`gst_eligible_spending\` (0 par défaut, ≥ 0) sont en
dollars; avec \`input_mode: "monthly"\`, les deux sont mensuels et multipliés par 12. Les montants sont convertis en
cents entiers (arrondis au plus proche, la moitié vers le haut) et tout le calcul sur l’argent est exact.

*Exercices.* Un exercice \`y\` est l’exercice financier fédéral qui commence le 1er avril de \`y\` (2018 = 2018-2019).
L’**exercice courant** est le dernier exercice des données qui a un chiffre publié des revenus fédéraux (les chiffres
sourcés vont de ${firstRevenueFr} à ${lastRevenueFr}), sauf si le service est configuré autrement; il ne dépend jamais de la
date de la demande. \`taxpayer_since_year\` (2018 par défaut) doit être compris entre le premier exercice des données
(mais pas avant ${firstRevenueFr}) et l’exercice courant.

*Impôt fédéral sur le revenu* (année d’imposition = l’année civile où commence l’exercice courant, dans les tables de
l’ARC de ${firstTax} à ${lastTax}) :
\`federal_income_tax = max(0, Σ_tranches taux_b × part du revenu dans la tranche b − taux_le_plus_bas × MPB)\`,
où MPB est le montant personnel de base. À partir de 2020,
\`MPB = MPB_max − (MPB_max − MPB_min) × (revenu − t₂₉) / (t₃₃ − t₂₉)\`, borné à [MPB_min, MPB_max], où t₂₉ et t₃₃
sont les bornes inférieures des tranches à 29 % et à 33 %. Le résultat est arrondi au cent (la moitié vers le haut)
une seule fois, à la fin. Ni impôt provincial, ni déductions, ni autres crédits.

*TPS :* \`gst_paid = ${(GST_RATE_PER_MILLE / 10).toLocaleString('fr-CA')} % × gst_eligible_spending\` (arrondi au cent, la
moitié vers le haut).

*Contribution :* \`C = total_tax_contribution = federal_income_tax + gst_paid\`.

*Part d’un dollar fédéral pendant l’exercice y :* \`rate(y) = C / federal_revenue(y)\` (revenus totaux des Comptes
publics du Canada). \`revenue_share_percentage = rate(courant) × 100\`.

*Valeur annuelle d’une entente :* sa valeur actuelle (la plus récente modification) répartie également, en cents
entiers, sur les exercices allant de sa date de début à sa date de fin (un seul exercice quand la date de fin manque ou
précède le début; au plus ${MAX_SPAN_YEARS} exercices); les cents restants vont aux premiers exercices.

*Par exercice :* \`share(y) = rate(y) × Σ valeurs annuelles des ententes en cours pendant y\`.
\`yearly_breakdown\` donne \`share(y)\` pour chaque y de \`taxpayer_since_year\` à l’exercice courant, avec le
nombre d’ententes en cours et les ${TOP_PROJECTS_PER_YEAR} projets de plus grande valeur annuelle (chacun avec
\`user_share = rate(y) × valeur_annuelle\`). \`grants_portion_of_taxes = share(courant)\`.
\`total_grants_share = Σ_y share(y)\` sur ces exercices.

*Par entente :* \`user_share(g) = Σ_{y = depuis..courant} rate(y) × valeur_annuelle_g(y)\`; \`grant_shares\` sont
les ${TOP_GRANTS} ententes dont \`user_share\` est le plus élevé (à égalité : le plus petit identifiant d’abord).

*Projections* (les 5 exercices suivant l’exercice courant; revenus d’un exercice sans chiffre publié = le dernier
chiffre publié) : \`continuing_only(y) = rate(y) × Σ valeurs annuelles pendant y des ententes déjà conclues\`.
\`historical_average = moyenne sur y = depuis..courant de rate(y) × (valeur annuelle pendant y des ententes qui
commencent pendant y)\`. \`with_new_projects(y) = continuing_only(y) + historical_average\`.

*Affichage :* cette page écrit les montants à la française (1 234,56 $); dans la réponse de l’API, chaque champ
\`*_formatted\` s’écrit \`$1,234.56\` (négatif \`-$1,234.56\`), arrondi au cent (la moitié en s’éloignant de zéro) à
partir de la plus courte écriture décimale du montant.
`.trim();
