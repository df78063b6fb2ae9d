import type { OperatorRouterFactory } from './operatorApi';
import { whoamiRouter } from './keys/whoamiRoutes';
import { changeFeedRouter } from './changes/changeFeedRoutes';
import { entityRouter } from './entities/entityRoutes';
import { importRouter } from './import/importRoutes';

/**
 * The parts of the operator API (issue 25), mounted in this order under /operator/v1: each owns
 * its paths and asks for the key scope it needs.
 */
export const OPERATOR_PARTS: readonly OperatorRouterFactory[] = [
  whoamiRouter,
  changeFeedRouter,
  importRouter,
  entityRouter,
];
