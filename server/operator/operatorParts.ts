import type { OperatorRouterFactory } from './operatorApi';
import { whoamiRouter } from './keys/whoamiRoutes';
import { changeFeedRouter } from './changes/changeFeedRoutes';
import { entityRouter } from './entities/entityRoutes';
import { importRouter } from './import/importRoutes';
import { insightsRouter } from './insights/insightsRoutes';
import type { OperatorOperation } from './openapi/operatorOperation';
import { WHOAMI_OPERATIONS } from './keys/whoamiOperations';
import { CHANGE_FEED_OPERATIONS } from './changes/changeFeedOperations';
import { IMPORT_OPERATIONS } from './import/importOperations';
import { ENTITY_OPERATIONS } from './entities/entityOperations';
import { INSIGHTS_OPERATIONS } from './insights/insightsOperations';

/**
 * The parts of the operator API, mounted in this order under /operator/v1: each owns
 * its paths and asks for the key scope it needs.
 */
export const OPERATOR_PARTS: readonly OperatorRouterFactory[] = [
  whoamiRouter,
  changeFeedRouter,
  importRouter,
  insightsRouter,
  entityRouter,
];

/**
 * What the parts' routes do, for the OpenAPI document at /operator/v1/openapi.json: each
 * part's table sits next to its routes. A part added above needs its table here:
 * tests/server/operator/operatorOpenApi.test.ts walks every part's router and fails on a route
 * that no operation describes, or an operation that no route answers.
 */
export const OPERATOR_OPERATIONS: readonly OperatorOperation[] = [
  ...WHOAMI_OPERATIONS,
  ...CHANGE_FEED_OPERATIONS,
  ...IMPORT_OPERATIONS,
  ...INSIGHTS_OPERATIONS,
  ...ENTITY_OPERATIONS,
];
