// GET /api/health/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { timestamp } from './common.ts';

export const HealthResponse = Type.Object({
  status: Type.String(),
  timestamp: timestamp('Time of the check'),
  version: Type.String(),
  database: Type.Object({
    connected: Type.Boolean(),
    draws_count: Nullable(Type.Integer()),
    categories_count: Nullable(Type.Integer()),
    predictions_count: Nullable(Type.Integer()),
  }),
  endpoints: Type.Object({
    predictions: Type.String(),
    categories: Type.String(),
    draws: Type.String(),
    statistics: Type.String(),
    documentation: Type.String(),
  }),
});

export const healthRoute = {
  summary: 'Health check',
  description: 'Database reachability and row counts. 503 with status "unhealthy" while the database is unreachable.',
  response: { 200: HealthResponse },
};
