import type { OperatorOperation } from '../openapi/operatorOperation';

/** changeFeedRoutes.ts as the OpenAPI document describes it. */
export const CHANGE_FEED_OPERATIONS: readonly OperatorOperation[] = [
  {
    method: 'get',
    path: '/changes',
    operationId: 'listChanges',
    tag: 'Change feed',
    scope: 'read',
    summary: "The subscribers' changes, a page after a cursor",
    description:
      "The tenant's account events in commit-safe order, each with its acknowledgement state. Page on with `after=<nextCursor>` while `hasMore`; keep the last `nextCursor` to ask again later: no cursor skips a change that committed late.",
    querySchema: 'operator-change-query',
    responses: { 200: { description: 'One page of the feed.', schema: 'operator-change-page' } },
    errors: {
      400: [{ code: 'validation_failed', when: 'A query parameter is not valid (details name each).' }],
    },
  },
  {
    method: 'post',
    path: '/changes/{eventId}/acknowledgement',
    operationId: 'acknowledgeChange',
    tag: 'Change feed',
    scope: 'write',
    summary: 'Confirm or reject a change',
    description:
      'Confirms a change, or rejects it with a reason per locale of the tenant: the subscriber reads it on the orders page and is told by e-mail. Idempotent: the same acknowledgement again answers the stored one with 200. A decision is final: a different one afterwards is 409.',
    pathParameters: [
      {
        name: 'eventId',
        description: 'The `event.id` of the change in the feed.',
        required: true,
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    body: {
      mediaType: 'application/json',
      schema: 'operator-change-acknowledgement',
      description: 'Confirmed, or rejected with a reason.',
    },
    responses: {
      201: { description: 'Acknowledged now.', schema: 'operator-change-page#/definitions/acknowledgement' },
      200: {
        description: 'The same acknowledgement was stored already (a retry).',
        schema: 'operator-change-page#/definitions/acknowledgement',
      },
    },
    errors: {
      400: [
        {
          code: 'validation_failed',
          when: 'The body is not valid, or a reason misses a locale of the tenant.',
        },
      ],
      404: [{ code: 'not_found', when: "There is no such change in this tenant's feed." }],
      409: [
        {
          code: 'acknowledgement_conflict',
          when: 'The change was acknowledged differently already; the stored acknowledgement is in details.',
        },
        {
          code: 'not_a_change',
          when: 'A rejection of an event that records what happened (payment.settled, payment.refunded, data_export.requested), not a change the subscriber asked for.',
        },
      ],
    },
  },
];
