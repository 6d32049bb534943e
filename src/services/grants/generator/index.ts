// Public surface of the grants data generator.
export { writeGrantsCsv } from './generate.ts';
