/**
 * "Download my data" (docs/subscribers.md "Download my data"). Not a switchable feature: GDPR Art. 15 gives
 * every subscriber the right, so every tenant whose subscribers sign in offers it
 * (engine/domain/dataExport.ts `offersDataExport`, the rule the screens show the section by);
 * any other tenant answers 403 `feature_disabled` before sign-in or validation run.
 *
 * - POST /data-export — 202 `{ status: "preparing", message }`: a link is mailed to the account's
 *   address; 429 `rate_limited` with `retryAfterSeconds` for a second request within 24 hours.
 * - GET /data-export/download?token= — the ZIP (`application/zip`, streamed), only with the
 *   session of the account that asked, on the same tenant, within 24 hours; 404 otherwise.
 *
 * Both need a full sign-in: requireUser refuses a partial ("logged in only") session with 403
 * `partial_login` (engine/domain/sessionScope.ts lists nothing under /data-export for it).
 * The token travels in the query because the portal fetches the file through its API client (GET,
 * with the session header); query strings are never written to the request log
 * (server/http/requestLog.ts), and the token alone opens nothing.
 */
import { Router, type RequestHandler } from 'express';
import { pipeline } from 'node:stream/promises';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { validateQuery, validQuery } from '../http/validateBody';
import { accountCaller } from '../account/accountContext';
import { refuse } from '../tenancy/refusals';
import { requestTenant } from '../tenancy/tenantContext';
import { offersDataExport } from '../../engine/domain/dataExport';
import type { DataExportDownloadQuery } from '../../schemas/generated/data-export-download-query';
import type { DataExport } from './dataExportService';

export function dataExportRoutes(deps: { auth: AuthService; dataExport: DataExport }): Router {
  const router = Router();
  const offered: RequestHandler = (_req, res, next) => {
    if (!offersDataExport(requestTenant(res))) throw refuse.featureDisabled('a data export');
    next();
  };
  const user = requireUser(deps.auth);
  router.post('/data-export', offered, user, async (req, res) => {
    res
      .status(202)
      .json(await deps.dataExport.request(accountCaller(req, res), requestOrigin(req, res).portalUrl));
  });
  router.get(
    '/data-export/download',
    offered,
    user,
    validateQuery('data-export-download-query'),
    async (req, res) => {
      const { token } = validQuery<DataExportDownloadQuery>(res);
      const { fileName, stream } = await deps.dataExport.open(accountCaller(req, res), token);
      res
        .status(200)
        .type('application/zip')
        .set('content-disposition', `attachment; filename="${fileName}"`)
        .set('cache-control', 'private, no-store');
      // The headers are out once the first bytes are: a failure after that cuts the download off.
      await pipeline(stream, res).catch((error: unknown) => {
        if (!res.headersSent) throw error;
        res.destroy(error instanceof Error ? error : undefined);
      });
    },
  );
  return router;
}
