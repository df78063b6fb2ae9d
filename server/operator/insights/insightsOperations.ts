import type { OperatorOperation } from '../openapi/operatorOperation';

/** insightsRoutes.ts as the OpenAPI document describes it. */
export const INSIGHTS_OPERATIONS: readonly OperatorOperation[] = [
  {
    method: 'get',
    path: '/insights',
    operationId: 'retentionInsights',
    tag: 'Insights',
    scope: 'read',
    summary: 'Retention insights of a period',
    description:
      "The flows that showed offers (cancellation, renewal, upgrade) started in the period and what came of them: flows started, open (their 14-day outcome window not closed yet: in no rate), offers shown, accepted and paid, cancelled, kept (window closed without a cancellation, or with an accepted offer), save rate of the closed flows and revenue kept per currency, per publication and cancellation reason and per ISO week, and each offer experiment variant with its 95 % interval and the z-test against the control; with the order system's names of the reasons and offers per locale.",
    querySchema: 'operator-insights-query',
    responses: { 200: { description: "The period's insights.", schema: 'retention-insights' } },
    errors: {
      400: [
        {
          code: 'validation_failed',
          when: 'A day is not YYYY-MM-DD from 1970 to 2999, from is after to, or the period is longer than 20 years.',
        },
      ],
    },
  },
];
