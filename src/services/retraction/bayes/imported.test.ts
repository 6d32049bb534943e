import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parsePublishedFit, publishedPredictorNames, readPublishedFit, unwrapScalars } from './imported.ts';
import { publishedFitPath, skipWithoutPublishedFit } from './test-data.ts';

const path = publishedFitPath();
const skip = skipWithoutPublishedFit(path);

test('unwrapScalars turns one-element arrays into scalars, recursively', () => {
  assert.deepEqual(unwrapScalars({ a: [1], b: { c: ['x'] }, d: [1, [2]] }), { a: 1, b: { c: 'x' }, d: [1, 2] });
});

test('the published fit loads into the FitResult shape, marked imported', { skip }, async () => {
  const fit = await readPublishedFit(path!);
  const raw = JSON.parse(readFileSync(path!, 'utf8'));
  const names = publishedPredictorNames(raw);
  assert.equal(names.length, 11);
  assert.equal(fit.source, 'imported');
  assert.deepEqual(fit.predictors, names);
  assert.deepEqual(
    fit.summaries.map((s) => s.name),
    names,
  );

  // Values as the file states them (negbin_multivariate_democracy).
  const democracy = fit.summaries.find((s) => s.name === 'democracy')!;
  const source = raw.negbin_multivariate_democracy;
  assert.equal(democracy.mean, source.coefficient[0]);
  assert.equal(democracy.sd, source.std_error[0]);
  assert.equal(democracy.rateRatio, source.rate_ratio[0]);
  assert.equal(democracy.rateRatioLower, source.cri_lower[0]);
  assert.equal(democracy.rateRatioUpper, source.cri_upper[0]);
  assert.equal(democracy.ciLower, Math.log(source.cri_lower[0]));
  assert.equal(democracy.probNegative, source.prob_negative[0]);
  assert.equal(democracy.sourceInterpretation, source.interpretation[0]);
  assert.ok(democracy.interpretation.includes('27.5% lower'), democracy.interpretation);
  // What the file lacks stays null.
  assert.equal(democracy.rhat, null);
  assert.equal(democracy.essBulk, null);
  assert.equal(democracy.median, null);

  const d = fit.diagnostics;
  const md = raw.model_diagnostics;
  assert.equal(d.rhatMax, md.max_rhat[0]);
  assert.equal(d.essRatioMin, md.min_ess_ratio[0]);
  assert.equal(d.chains, md.chains[0]);
  assert.equal(d.iterations, md.iterations[0]);
  assert.equal(d.warmup, md.warmup[0]);
  assert.equal(d.sampleSize, md.sample_size[0]);
  assert.equal(d.countries, md.countries[0]);
  assert.deepEqual(d.years, { first: 2006, last: 2023, count: 18 });
  assert.equal(d.loo!.looic, md.loo_estimate[0]);
  assert.equal(d.loo!.elpdLoo, null);
  assert.equal(d.divergences, null);
  assert.equal(d.essBulkMin, null);
  assert.equal(d.samplerSeconds, null);
  assert.equal(fit.timing, null);
  assert.equal(fit.config, null);
  assert.equal(fit.methodology.data.missingDataMethod, md.missing_data_method[0]);
  assert.equal(fit.methodology.priorsDescription, md.priors[0]);
  assert.ok(fit.importedExtras && 'subgroup_analysis' in fit.importedExtras && 'log_gaussian_results' in fit.importedExtras);

  // JSON-serialisable without loss.
  assert.deepEqual(JSON.parse(JSON.stringify(fit)), fit);
});

test('a file without negbin entries is refused', () => {
  assert.throws(() => parsePublishedFit({ model_diagnostics: {} }), /negbin_multivariate_/);
  assert.throws(() => parsePublishedFit(null), TypeError);
});
