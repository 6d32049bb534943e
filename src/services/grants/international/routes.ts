// GET /api/international/projects/, /api/international/projects/{project_number}/ and /api/international/stats/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { clampLimit } from '../../../core/http/params.ts';
import type { GrantsRoutes } from '../routes/context.ts';
import { projectQuery } from './query.ts';
import { getProject, readInternationalStats, searchProjects } from './repository.ts';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  PROJECTS_DOCS,
  PROJECT_DOCS,
  ProjectParams,
  ProjectRecord,
  ProjectsBody,
  ProjectsQuery,
  STATS_DOCS,
  StatsBody,
} from './schemas.ts';

const NO_INTERNATIONAL_DATA =
  'no international projects have been imported yet; run `pdi import grants <csv> --kind international` (or start the server with demo data)';

export const internationalRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { db }) => {
  app.get(
    '/international/projects/',
    {
      schema: { ...PROJECTS_DOCS, querystring: ProjectsQuery, response: { 200: ProjectsBody } },
      config: { operation: 'international project search', responseCache: true },
    },
    async (request) => {
      const q = request.query;
      const limit = clampLimit(q.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
      const offset = q.offset ?? 0;
      const { count, results } = await searchProjects(db, projectQuery(q, { limit, offset }));
      return { count, limit, offset, results };
    },
  );
  app.get(
    '/international/projects/:project_number/',
    {
      schema: { ...PROJECT_DOCS, params: ProjectParams, response: { 200: ProjectRecord } },
      config: { operation: 'international project lookup', responseCache: true },
    },
    async (request) => {
      const project = await getProject(db, request.params.project_number);
      if (!project) throw notFound('project not found');
      return project;
    },
  );
  app.get(
    '/international/stats/',
    { schema: { ...STATS_DOCS, response: { 200: StatsBody } }, config: { operation: 'international statistics', responseCache: true } },
    async () => {
      const stored = await readInternationalStats(db);
      if (!stored) throw new HttpError(503, NO_INTERNATIONAL_DATA);
      return { ...stored.stats, data_source: stored.data_source };
    },
  );
};
