import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses } from '../shared/schemas.js';
import { GHS_SOURCE } from './ghs-data.js';
import { hazardClasses, statementRules } from './render.js';
import { HazardClassInfo, HazardStatementRule } from './schemas.js';

// The rules table for the app's pickers and for integrators (docs/hazards.md): the same for everyone, from code.

export const hazardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/hazards/statements',
    {
      schema: {
        operationId: 'listHazardStatements',
        tags: ['Hazards'],
        summary: 'List the GHS hazard statements Labstock knows',
        description: `Every statement an item or a type may carry, with its classes, pictograms and signal word. Source: ${GHS_SOURCE}.`,
        response: responses({ 200: Type.Array(ref(HazardStatementRule)) }, [401]),
      },
    },
    async () => statementRules(),
  );
  app.get(
    '/hazards/classes',
    {
      schema: {
        operationId: 'listHazardClasses',
        tags: ['Hazards'],
        summary: 'List the hazard classes',
        description: 'The ids the inventory filter `hazard_class` and the hazards answers use, with their categories.',
        response: responses({ 200: Type.Array(ref(HazardClassInfo)) }, [401]),
      },
    },
    async () => hazardClasses(),
  );
};
