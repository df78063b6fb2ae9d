import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { Router, type RequestHandler, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { tenantContext, type ServerTenant, type TenantContext } from '../tenancy/tenantContext';
import { pageReferrerPolicy, pageSecurityPolicy, type PagePolicyOptions } from '../http/securityHeaders';
import { dynamicCompression } from '../http/compression';
import { errorBody } from '../http/errors';
import { parseCookies } from '../http/cookies';
import { LOCALE_COOKIE } from '../../engine/domain/language';
import { preloadShownTexts, textPreloadOf, type TextPreload } from './textPreload';
import { portalCommand } from '../runtime/portalCommand';

export const BASE_PLACEHOLDER = '%PORTAL_BASE%';

interface IndexPage {
  html: string;
  policy: string;
  preload: TextPreload | undefined;
}

/**
 * Serves one built tenant (`dist/<tenant>/`): hashed assets with a long cache, every other GET
 * the SPA's index.html with the base path filled in (SPA fallback for screens). The page may be
 * framed only by the tenant's configured parent origins. Assets go out as the variant the build
 * compressed them to (`x.js.br`, `x.js.gz`) that the client accepts, brotli first; the page,
 * made per base path, is compressed as it is sent (docs/decisions.md "Compression: brotli quality
 * 10 at build time, 4 per request").
 */
export function tenantSite(distDir: string): Router {
  const router = Router();
  const pages = new Map<string, IndexPage & { written: string }>();
  const compressPage = dynamicCompression();

  // The page's policy (hashes of the inline theme and any inline script) is computed once per
  // tenant, base path and build: a `portal build` (or `portal preview`, which builds into the same
  // dist/) while the server runs is served from the next page load on, without a restart, as its
  // new script names need. While the build rewrites the tenant's folder, the last page stays.
  function indexPage(tenant: ServerTenant, basePath: string, contactScript: boolean): IndexPage | undefined {
    const key = `${tenant.id}\n${basePath}\n${contactScript}`;
    const file = path.join(distDir, tenant.id, 'index.html');
    const kept = pages.get(key);
    let written: string;
    try {
      const stat = statSync(file);
      // Empty while a build writes it anew: the page before is still the whole one.
      if (stat.size === 0) return kept;
      written = `${stat.mtimeMs} ${stat.size}`;
    } catch {
      return kept;
    }
    if (kept?.written === written) return kept;
    let html: string;
    try {
      html = readFileSync(file, 'utf8').replace(BASE_PLACEHOLDER, basePath);
    } catch {
      return kept;
    }
    const page = {
      html,
      policy: pageSecurityPolicy(tenant, html, { contactScript }),
      preload: textPreloadOf(html),
      written,
    };
    pages.set(key, page);
    return page;
  }

  // express-static-gzip lists a folder's compressed variants once, when it is made: one per shared
  // assets folder (dist/.assets/<name>, linked by every tenant with the same files), made for the
  // folder the tenant's `assets` link leads to now. After a rebuild links it elsewhere, the folder
  // before stays second in line while it exists: a page loaded before the rebuild still finds the
  // screens it loads later by their old names. A tenant not built yet gets none kept, so its first
  // request after `portal build` finds the files.
  const assetFolderServers = new Map<string, RequestHandler>();
  const tenantAssets = new Map<string, { folder: string; servers: RequestHandler[] }>();
  function assetServers(tenantId: string): RequestHandler[] {
    const root = path.join(distDir, tenantId, 'assets');
    let folder: string;
    try {
      folder = realpathSync(root);
    } catch {
      return tenantAssets.get(tenantId)?.servers ?? [precompressedFiles(root)];
    }
    const known = tenantAssets.get(tenantId);
    if (known?.folder === folder) return known.servers;
    const serve = assetFolderServers.get(folder) ?? precompressedFiles(folder);
    assetFolderServers.set(folder, serve);
    const servers = known ? [serve, known.servers[0]] : [serve];
    tenantAssets.set(tenantId, { folder, servers });
    return servers;
  }

  router.use('/assets', (req, res, next) => {
    // express-static-gzip answers a path it cannot decode (a lone surrogate as %ED%A0%80) with a
    // text/html 400 of its own: the API's JSON refusal instead, as for any other path.
    if (!decodesAsUtf8(req.path)) {
      res
        .status(400)
        .json(
          errorBody('validation_failed', 'The request is not valid.', [
            { field: 'path', message: 'must be valid UTF-8 percent-encoding' },
          ]),
        );
      return;
    }
    const { tenant } = tenantContext(res);
    const [current, before] = assetServers(tenant.id);
    const answered = (error?: unknown) => {
      // A variant that was listed but is gone: the error answer is not compressed.
      if (!res.headersSent) res.removeHeader('Content-Encoding');
      // serve-static's 403 for a path that climbs out of the folder: it names no file either.
      const outOfFolder = (error as { status?: number } | undefined)?.status === 403;
      next(outOfFolder ? Object.assign(new Error('There is no such file.'), { status: 404 }) : error);
    };
    current(req, res, (error?: unknown) => {
      if (before && !res.headersSent && (error as { status?: number } | undefined)?.status === 404) {
        res.removeHeader('Content-Encoding');
        res.removeHeader('Vary');
        before(req, res, answered);
      } else answered(error);
    });
  });

  router.get('/{*path}', compressPage, (req, res) => {
    const { tenant, basePath, besideDemoPages } = tenantContext(res);
    const page = indexPage(tenant, basePath, !besideDemoPages);
    if (!page) {
      res
        .status(503)
        .type('text/plain')
        .send(`The portal of "${tenant.id}" is not built yet. Run: ${portalCommand()} build ${tenant.id}`);
      return;
    }
    const wishes = [
      typeof req.query.lang === 'string' ? req.query.lang : undefined,
      parseCookies(req.headers.cookie)[LOCALE_COOKIE],
    ];
    writePage(res, preloadShownTexts(page.html, page.preload, tenant, wishes), page.policy, req.originalUrl);
  });

  return router;
}

/** A folder's files, each as its best variant the client accepts; `Vary: Accept-Encoding` on those that have one. */
function precompressedFiles(root: string): RequestHandler {
  return expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { immutable: true, maxAge: '1y', fallthrough: false, index: false },
  }) as RequestHandler;
}

function writePage(res: Response, html: string, policy: string, url: string): void {
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('Referrer-Policy', pageReferrerPolicy(url));
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(html);
}

/**
 * Sends a tenant page made per request (`portal dev` renders it through Vite), with its policy; the
 * contact script is left out where the tenant context says the page shares the demo pages' origin.
 */
export function sendPage(
  res: Response,
  tenant: ServerTenant,
  html: string,
  options: PagePolicyOptions & { url?: string } = {},
): void {
  const context = res.locals.tenantContext as TenantContext | undefined;
  const policy = pageSecurityPolicy(tenant, html, {
    ...options,
    contactScript: options.contactScript ?? !context?.besideDemoPages,
  });
  writePage(res, html, policy, options.url ?? res.req.originalUrl);
}

/** Whether a path's %-escapes decode (as UTF-8): `decodeURIComponent` throws a URIError where not. */
function decodesAsUtf8(urlPath: string): boolean {
  try {
    decodeURIComponent(urlPath);
    return true;
  } catch {
    return false;
  }
}
