// Hand labels for the review-title check (src/services/oral/sources/review-title.ts), written on 2026-11-26 by
// reading each review's summary-of-findings rows (populations, interventions, comparisons, outcomes) in
// ../shared/data/oral against the titles of cochrane_titles.csv, before any score was computed.

/** Reviews whose listed title describes their own rows; every other of the 141 listed titles does not. */
export const LISTED_TITLE_MATCHES: readonly string[] = ['CD003815', 'CD003877', 'CD012432'];

/**
 * Listed titles that do describe another review's rows: [the id the title is listed for, the review it
 * describes]. The titles file holds the right titles under the wrong ids; these are true matches to check that
 * the measure finds a title that fits.
 */
export const CROSS_MATCHES: readonly (readonly [string, string])[] = [
  ['CD003809', 'CD003811'],
  ['CD004346', 'CD004714'],
  ['CD002281', 'CD004625'],
  ['CD002284', 'CD002281'],
  ['CD005511', 'CD001830'],
  ['CD000979', 'CD001830'],
  ['CD000979', 'CD003067'],
  ['CD003976', 'CD003813'],
  ['CD004622', 'CD004969'],
  ['CD005293', 'CD006968'],
  ['CD005296', 'CD006968'],
  ['CD003875', 'CD003976'],
  ['CD005098', 'CD002779'],
  ['CD004969', 'CD001168'],
  ['CD003067', 'CD011018'],
  ['CD006386', 'CD000979'],
  ['CD010887', 'CD003452'],
  ['CD005972', 'CD003878'],
  ['CD009853', 'CD009603'],
  ['CD009109', 'CD012744'],
  ['CD006698', 'CD008367'],
  ['CD006202', 'CD011552'],
  ['CD008001', 'CD000978'],
  ['CD008001', 'CD011990'],
  ['CD010173', 'CD011559'],
  ['CD005620', 'CD004346'],
  ['CD003220', 'CD008829'],
  ['CD001830', 'CD007868'],
  ['CD010136', 'CD007592'],
  ['CD002280', 'CD008676'],
  ['CD001168', 'CD002280'],
  ['CD005512', 'CD002279'],
  ['CD006966', 'CD012432'],
  ['CD008455', 'CD004714'],
  ['CD004345', 'CD009197'],
  ['CD009376', 'CD005520'],
  ['CD005970', 'CD005620'],
  ['CD005516', 'CD006487'],
  ['CD003453', 'CD006542'],
  ['CD003813', 'CD008397'],
  ['CD003813', 'CD003815'],
];

/** The seed of the split into the half that chose the threshold and the half that only checked it. */
export const SPLIT_SEED = 'oral-title-split';
