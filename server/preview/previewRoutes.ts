/**
 * The QA preview's routes, mounted by server/app.ts only with devPages (`portal dev`,
 * `npm start`, `portal preview`); `portal serve` has none of them (tests/server/preview).
 *
 *   GET  /preview                 the page (previewPage.ts)
 *   GET  /preview/preview.js      its behaviour (previewScript.ts)
 *   GET  /preview/api/catalogue   tenants, their screens, demo logins and features, as JSON (the shots command reads it)
 *   POST /preview/api/sign-in     a login link for a demo login (previewSignIn.ts)
 */
import express, { Router } from 'express';
import type { Database } from '../db/database';
import { enabledCatalogFeatures } from '../../engine/domain/featureCatalog';
import { featureCatalog } from '../../tenant/featureCatalog';
import { apiNotFound } from '../http/errors';
import { noStore } from '../http/securityHeaders';
import type { TenantDirectory } from '../tenancy/tenantResolver';
import { previewPage } from './previewPage';
import { PREVIEW_SCRIPT } from './previewScript';
import { previewScreens, type PreviewScreen } from './previewScreens';
import type { DemoLoginSummary } from '../seed/demoLogins';
import { previewSignIn } from './previewSignIn';
import type { CommandDatabase } from '../seed/seedDemo';
import { previewLoginsOf } from './previewLogins';

/** GET /preview/api/catalogue: one entry per tenant. */
export interface PreviewCatalogueEntry {
  id: string;
  name: string;
  defaultLocale: string;
  locales: string[];
  features: string[];
  screens: PreviewScreen[];
  logins: DemoLoginSummary[];
}

export function previewRouter(deps: {
  db: Database;
  directory: TenantDirectory;
  now: () => Date;
  /** `portal preview`'s own database: see previewLoginsOf. */
  demoDataInEveryTenant: boolean;
  /** This server's database, which the hints' commands name (server/seed/seedDemo.ts). */
  commandDatabase?: CommandDatabase;
}): Router {
  const router = Router();
  router.get('/preview', previewPage(deps.directory, deps.demoDataInEveryTenant));
  router.get('/preview/preview.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/javascript').send(PREVIEW_SCRIPT);
  });
  const api = Router();
  api.use(noStore);
  api.use(express.json({ limit: '8kb' }));
  api.get('/catalogue', (_req, res) => {
    const catalogue: PreviewCatalogueEntry[] = deps.directory.all().map((tenant) => ({
      id: tenant.id,
      name: tenant.name,
      defaultLocale: tenant.defaultLocale,
      locales: [...tenant.locales],
      features: enabledCatalogFeatures(featureCatalog(), tenant.features).map((feature) => feature.id),
      screens: previewScreens(tenant),
      logins: previewLoginsOf(tenant, deps.demoDataInEveryTenant),
    }));
    res.json(catalogue);
  });
  api.post('/sign-in', previewSignIn(deps));
  api.use(apiNotFound);
  router.use('/preview/api', api);
  return router;
}
