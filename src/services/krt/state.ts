// What Service B's routes and pages share in a server process: one KrtAnswers (its knowledge base, registries and
// held articles, each kept per data version), made once by the kernel (ServiceModule.createState).
import type { ServiceContext } from '../../core/service.ts';
import { KrtAnswers } from './answers.ts';

export interface KrtState {
  answers: KrtAnswers;
}

export function createKrtState(ctx: ServiceContext): KrtState {
  return { answers: new KrtAnswers(ctx) };
}
