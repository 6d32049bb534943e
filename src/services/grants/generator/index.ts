// Public surface of the grants data generator.
export { writeGrantsCsv } from './generate.ts';
export type { GenerateOptions, GenerateSummary } from './generate.ts';
