// L2-regularised logistic regression over sparse binary features, trained by AdaGrad with a seeded order: small,
// deterministic, and its output is a score that calibration (rrid/calibration-map.ts) turns into a probability.

import { Random } from '../../../../core/random.ts';

export interface LogisticModel {
  format: 'krt-logistic';
  version: 1;
  bias: number;
  weights: Record<string, number>;
}

export interface Example {
  features: readonly string[];
  label: boolean;
  /** Relative weight of the example (default 1). */
  weight?: number;
}

export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  l2?: number;
  seed?: number;
}

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

export function trainLogistic(examples: readonly Example[], options: TrainOptions = {}): LogisticModel {
  const epochs = options.epochs ?? 30;
  const rate = options.learningRate ?? 0.3;
  const l2 = options.l2 ?? 1e-4;
  const random = new Random(options.seed ?? 15);
  const w = new Map<string, number>();
  const g2 = new Map<string, number>();
  let bias = 0;
  let biasG2 = 0;
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    random.shuffle(order);
    for (const i of order) {
      const ex = examples[i];
      let z = bias;
      for (const f of ex.features) z += w.get(f) ?? 0;
      const gradient = (sigmoid(z) - (ex.label ? 1 : 0)) * (ex.weight ?? 1);
      biasG2 += gradient * gradient;
      bias -= (rate * gradient) / Math.sqrt(biasG2 + 1e-8);
      for (const f of ex.features) {
        const current = w.get(f) ?? 0;
        const g = gradient + l2 * current;
        const acc = (g2.get(f) ?? 0) + g * g;
        g2.set(f, acc);
        w.set(f, current - (rate * g) / Math.sqrt(acc + 1e-8));
      }
    }
  }
  const weights: Record<string, number> = {};
  for (const [f, v] of [...w].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (Math.abs(v) > 1e-6) weights[f] = Number(v.toFixed(6));
  return { format: 'krt-logistic', version: 1, bias: Number(bias.toFixed(6)), weights };
}

/** The model's linear score (log-odds before calibration). */
export function logisticScore(model: LogisticModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return z;
}
