// The real IRCC feed kept in the shared data (../shared/data/draws/): the default input of the models
// report and the benchmark, and the file the tests check the importer and the forecasts against.
export const SNAPSHOT_NAME = 'ee_rounds_123_en.2025-12-17.json';
/** The day the snapshot was taken: the as-of date of every figure computed from it. */
export const SNAPSHOT_AS_OF = '2025-12-17';
