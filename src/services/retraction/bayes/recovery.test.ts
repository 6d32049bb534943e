// Parameter recovery at the scale of the published study: 167 countries × 18 years, the 11 predictors of
// democracy_model_results.json with their published coefficients as the truth, fitted with the default
// configuration (4 chains × 1000 warmup + 1000 draws, worker threads). Takes about a minute on 2 cores.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fitDemocracyModel } from './fit.ts';
import { parsePublishedFit, publishedPredictorNames } from './imported.ts';
import { simulatePanel } from './simulate.ts';
import { publishedFitPath, skipWithoutPublishedFit } from './test-data.ts';

const path = publishedFitPath();

test(
  "the default fit recovers the published effects from a simulated panel of the study's shape",
  { skip: skipWithoutPublishedFit(path) },
  async () => {
    const raw = JSON.parse(readFileSync(path!, 'utf8'));
    const published = parsePublishedFit(raw);
    const predictors = publishedPredictorNames(raw);
    assert.equal(predictors.length, 11);
    const beta = Object.fromEntries(published.summaries.map((s) => [s.name, s.mean]));
    // α: the published mean log retraction rate per publication (sensitivity_analysis.normality_tests.log_rate_mean).
    // σ_country, σ_year and φ are not in the file; the values below are this test's assumptions.
    const alpha = raw.sensitivity_analysis.normality_tests.log_rate_mean[0] as number;
    const truth = { alpha, beta, sigmaCountry: 1, sigmaYear: 0.3, phi: 5 };
    const { rows } = simulatePanel({ countries: 167, firstYear: 2006, years: 18, predictors, truth, seed: 'recovery-167x18' });

    const started = performance.now();
    const fit = await fitDemocracyModel(rows);
    const wall = (performance.now() - started) / 1000;

    const covered = fit.summaries.filter((s) => s.ciLower! <= beta[s.name] && beta[s.name] <= s.ciUpper!);
    const d = fit.diagnostics;
    const report = {
      wallSeconds: Number(wall.toFixed(1)),
      samplerSeconds: Number(d.samplerSeconds!.toFixed(1)),
      essPerSecond: Number(d.essPerSecond!.toFixed(1)),
      essBulkMin: Math.round(d.essBulkMin!),
      essBulkMinParameter: d.essBulkMinParameter,
      essTailMin: Math.round(d.essTailMin!),
      essTailMinParameter: d.essTailMinParameter,
      rhatMax: Number(d.rhatMax!.toFixed(4)),
      rhatMaxParameter: d.rhatMaxParameter,
      divergences: d.divergences,
      treeDepthSaturated: d.treeDepthSaturation!.count,
      meanTreeDepth: Number(d.meanTreeDepth!.toFixed(2)),
      covered: `${covered.length}/11`,
      hyperparameters: Object.fromEntries(
        fit.hyperparameters.map((h) => [h.name, [Number(h.ciLower!.toFixed(3)), Number(h.ciUpper!.toFixed(3))]]),
      ),
    };
    console.log(`recovery: ${JSON.stringify(report)}`);
    for (const s of fit.summaries) {
      console.log(
        `  ${s.name.padEnd(28)} truth ${beta[s.name].toFixed(4).padStart(7)}  mean ${s.mean.toFixed(4).padStart(7)}  95% [${s.ciLower!.toFixed(4)}, ${s.ciUpper!.toFixed(4)}]`,
      );
    }

    assert.ok(covered.length >= 10, `95% intervals cover ${covered.length} of 11 true coefficients`);
    assert.ok(d.rhatMax! < 1.01, `max R̂ ${d.rhatMax} (${d.rhatMaxParameter})`);
    assert.ok(d.essBulkMin! > 400, `min bulk ESS ${d.essBulkMin} (${d.essBulkMinParameter})`);
    assert.equal(fit.diagnostics.sampleSize, 167 * 18);
  },
);
