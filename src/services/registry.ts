// The services this build serves, in the order of the specification's labels (A–E).
import type { ServiceModule } from '../core/service.ts';
import { serviceNameOf } from '../core/config.ts';
import { oralService } from './oral/service.ts';
import { krtService } from './krt/service.ts';
import { grantsService } from './grants/service.ts';
import { drawsService } from './draws/service.ts';
import { retractionService } from './retraction/service.ts';

export const SERVICES: readonly ServiceModule[] = [oralService, krtService, grantsService, drawsService, retractionService];

export function findService(name: string): ServiceModule {
  const wanted = serviceNameOf(name);
  const found = SERVICES.find((s) => s.name === wanted);
  if (!found) throw new Error(`service "${wanted}" is not in this build`);
  return found;
}
