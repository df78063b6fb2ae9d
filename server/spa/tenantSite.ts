import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';
import { tenantContext, type ServerTenant } from '../tenancy/tenantContext';

export const BASE_PLACEHOLDER = '%PORTAL_BASE%';

/**
 * Serves one built tenant (`dist/<tenant>/`): hashed assets with a long cache, every other GET
 * the SPA's index.html with the base path filled in (SPA fallback for screens). The page may be
 * framed only by the tenant's configured parent origins.
 */
export function tenantSite(distDir: string): Router {
  const router = Router();
  const pages = new Map<string, string>();

  function indexHtml(tenantId: string, basePath: string): string | undefined {
    const key = `${tenantId}\n${basePath}`;
    let html = pages.get(key);
    if (html === undefined) {
      const file = path.join(distDir, tenantId, 'index.html');
      if (!existsSync(file)) return undefined;
      html = readFileSync(file, 'utf8').replace(BASE_PLACEHOLDER, basePath);
      pages.set(key, html);
    }
    return html;
  }

  router.use('/assets', (req, res, next) => {
    const { tenant } = tenantContext(res);
    express.static(path.join(distDir, tenant.id, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false, index: false })(req, res, next);
  });

  router.get('/{*path}', (_req, res) => {
    const { tenant, basePath } = tenantContext(res);
    const html = indexHtml(tenant.id, basePath);
    if (!html) {
      res.status(503).type('text/plain').send(`The portal of "${tenant.id}" is not built yet. Run: npx portal build ${tenant.id}`);
      return;
    }
    sendPage(res, tenant, html);
  });

  return router;
}

export function frameAncestors(tenant: ServerTenant): string {
  return tenant.embedding.isEmbedded ? ["'self'", ...tenant.embedding.parentOrigins].join(' ') : "'self'";
}

export function sendPage(res: Response, tenant: ServerTenant, html: string): void {
  res.setHeader('Content-Security-Policy', `frame-ancestors ${frameAncestors(tenant)}`);
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}
