// POST /api/calculate/: a taxpayer's share of federal grants, from the calculator's aggregates stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError, badRequest, notFound } from '../../../core/http/errors.ts';
import {
  CalculatorInputError,
  calculateTaxpayerShare,
  calculationIn,
  grantTaxpayerShare,
  namedIn,
  servedGrantInput,
} from '../calculator/index.ts';
import { GRANTS_LANGUAGES, requestLanguage } from '../language.ts';
import { getGrant } from '../repository.ts';
import { GrantParams } from '../schemas/grant.ts';
import {
  CALCULATE_DOCS,
  CalculateBody,
  CalculateQuery,
  CalculateRequest,
  GRANT_SHARE_DOCS,
  GrantShareBody,
  GrantShareQuery,
} from '../schemas/calculator.ts';
import type { GrantsRoutes } from './context.ts';

export const calculatorRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { db, calculatorAggregates }) => {
  app.post(
    '/calculate/',
    {
      schema: { ...CALCULATE_DOCS, querystring: CalculateQuery, body: CalculateRequest, response: { 200: CalculateBody } },
      config: { operation: 'calculation', languages: GRANTS_LANGUAGES },
    },
    async (request) => {
      const { stored, french } = await calculatorAggregates();
      if (!stored.ok) throw new HttpError(500, `calculation error: ${stored.error}`);
      try {
        const answer = calculateTaxpayerShare(request.body, stored.aggregates);
        return { ...calculationIn(answer, french, requestLanguage(request, request.query.lang)), data_source: stored.data_source };
      } catch (error) {
        if (error instanceof CalculatorInputError) throw badRequest(error.message);
        throw error;
      }
    },
  );

  app.get(
    '/grants/:id/taxpayer-share/',
    {
      schema: { ...GRANT_SHARE_DOCS, params: GrantParams, querystring: GrantShareQuery, response: { 200: GrantShareBody } },
      config: { operation: 'grant taxpayer share', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => {
      const language = requestLanguage(request, request.query.lang);
      const grant = await getGrant(db, Number(request.params.id), 'both');
      if (!grant) throw notFound('grant not found');
      const { stored } = await calculatorAggregates();
      if (!stored.ok) throw new HttpError(500, `calculation error: ${stored.error}`);
      try {
        const answer = grantTaxpayerShare(servedGrantInput(grant), request.query, stored.aggregates);
        const french = new Map([[grant.id, { title: grant.agreement_title_fr ?? '', recipient: grant.recipient_legal_name_fr ?? '' }]]);
        const named = namedIn({ id: grant.id, title: grant.agreement_title_en, recipient: grant.recipient_legal_name }, french, language);
        return {
          grant: {
            ...named,
            total_value: grant.agreement_value,
            agreement_start_date: grant.agreement_start_date,
            agreement_end_date: grant.agreement_end_date,
          },
          ...answer,
          data_source: stored.data_source,
        };
      } catch (error) {
        if (error instanceof CalculatorInputError) throw badRequest(error.message);
        throw error;
      }
    },
  );
};
