import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import { pageReferrerPolicy, pageSecurityPolicy, type PagePolicyOptions } from '../http/securityHeaders';

export const BASE_PLACEHOLDER = '%PORTAL_BASE%';

/**
 * Serves one built tenant (`dist/<tenant>/`): hashed assets with a long cache, every other GET
 * the SPA's index.html with the base path filled in (SPA fallback for screens). The page may be
 * framed only by the tenant's configured parent origins.
 */
export function tenantSite(distDir: string): Router {
  const router = Router();
  const pages = new Map<string, { html: string; policy: string }>();

  // The built page does not change while the server runs: its policy (hashes of the inline theme
  // and any inline script) is computed once per tenant and base path.
  function indexPage(tenant: ServerTenant, basePath: string): { html: string; policy: string } | undefined {
    const key = `${tenant.id}\n${basePath}`;
    let page = pages.get(key);
    if (page === undefined) {
      const file = path.join(distDir, tenant.id, 'index.html');
      if (!existsSync(file)) return undefined;
      const html = readFileSync(file, 'utf8').replace(BASE_PLACEHOLDER, basePath);
      page = { html, policy: pageSecurityPolicy(tenant, html) };
      pages.set(key, page);
    }
    return page;
  }

  router.use('/assets', (req, res, next) => {
    const { tenant } = tenantContext(res);
    express.static(path.join(distDir, tenant.id, 'assets'), {
      immutable: true,
      maxAge: '1y',
      fallthrough: false,
      index: false,
    })(req, res, next);
  });

  router.get('/{*path}', (req, res) => {
    const { tenant, basePath } = tenantContext(res);
    const page = indexPage(tenant, basePath);
    if (!page) {
      res
        .status(503)
        .type('text/plain')
        .send(`The portal of "${tenant.id}" is not built yet. Run: npx portal build ${tenant.id}`);
      return;
    }
    writePage(res, page.html, page.policy, req.originalUrl);
  });

  return router;
}

function writePage(res: Response, html: string, policy: string, url: string): void {
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('Referrer-Policy', pageReferrerPolicy(url));
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}

/** Sends a tenant page made per request (`portal dev` renders it through Vite), with its policy. */
export function sendPage(
  res: Response,
  tenant: ServerTenant,
  html: string,
  options: PagePolicyOptions & { url?: string } = {},
): void {
  writePage(res, html, pageSecurityPolicy(tenant, html, options), options.url ?? res.req.originalUrl);
}
