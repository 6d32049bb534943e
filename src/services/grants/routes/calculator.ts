// POST /api/calculate/: a taxpayer's share of federal grants, from the calculator's aggregates stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { CalculatorInputError, calculateTaxpayerShare } from '../calculator/index.ts';
import { CALCULATE_DOCS, CalculateBody, CalculateRequest } from '../schemas/calculator.ts';
import type { GrantsRoutes } from './context.ts';

export const calculatorRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { calculatorAggregates }) => {
  app.post(
    '/calculate/',
    { schema: { ...CALCULATE_DOCS, body: CalculateRequest, response: { 200: CalculateBody } }, config: { operation: 'calculation' } },
    async (request) => {
      const stored = await calculatorAggregates();
      if (!stored.ok) throw new HttpError(500, `calculation error: ${stored.error}`);
      try {
        return { ...calculateTaxpayerShare(request.body, stored.aggregates), data_source: stored.data_source };
      } catch (error) {
        if (error instanceof CalculatorInputError) throw badRequest(error.message);
        throw error;
      }
    },
  );
};
