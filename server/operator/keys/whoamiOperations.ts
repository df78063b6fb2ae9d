import type { OperatorOperation } from '../openapi/operatorOperation';

/** whoamiRoutes.ts as the OpenAPI document describes it. */
export const WHOAMI_OPERATIONS: readonly OperatorOperation[] = [
  {
    method: 'get',
    path: '/whoami',
    operationId: 'whoami',
    tag: 'Keys',
    scope: 'any',
    summary: 'The tenant and API key of this call',
    description:
      'Answers which key the call carried (tenant, prefix, name, scopes), never the key itself: test a new key with one call before wiring the order system. Any scope.',
    responses: { 200: { description: 'The key is valid for this tenant.', schema: 'operator-whoami' } },
  },
];
