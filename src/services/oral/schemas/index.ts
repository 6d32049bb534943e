// Service A's request and response schemas, one file per endpoint group.
export * from './common.ts';
export * from './recommendations.ts';
export * from './guidelines.ts';
export * from './reviews.ts';
export * from './stats.ts';
export * from './metadata.ts';
export * from './search.ts';
