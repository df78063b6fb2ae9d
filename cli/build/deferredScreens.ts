import type { Manifest } from 'vite';
import { FEATURES } from '../../engine/features';
import type { FeatureDefinition } from '../../engine/features/types';
import { deferredScreenOwner } from '../../engine/features/types';
import { ROUTES } from '../../engine/domain/routeRefs';

/** The deferred table's module (engine/features/deferred.ts), as Vite's manifest keys it. */
export const DEFERRED_TABLE_MODULE = 'features/deferred.ts';

/**
 * The paths of the pages that never ask for the deferred table: those whose screens the entry loads
 * itself (engine/features/types.ts: the login, the orders), but not a subscription's page, which
 * asks for its actions through the table as it mounts (engine/core/featureRoutes.tsx), and `/`,
 * which sends on to the orders; as one case-insensitive pattern of the path below the base, as
 * react-router matches them.
 */
export function pagesWithoutTablePattern(features: readonly FeatureDefinition[] = FEATURES): string {
  const paths = features
    .flatMap((feature) => feature.routes)
    .filter((route) => deferredScreenOwner(route.screen) === undefined && route.ref !== ROUTES.subscription)
    .map((route) =>
      route.ref.path
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('\\/'),
    );
  return `^(?:${paths.join('|')})?\\/?$`;
}

/**
 * The page's inline script that preloads the deferred table (engine/features/deferred.ts) when the
 * visit starts on a page that needs it: the table then loads beside the entry instead of after it,
 * and the screen's own file is asked for as soon as the router renders it. The orders and the login
 * page, where most visits start, do not download it (docs/testing.md "Speed and size"). The
 * server's page policy allows the script by its hash (server/http/securityHeaders.ts).
 */
export function deferredScreensPreload(
  manifest: Manifest,
  features: readonly FeatureDefinition[] = FEATURES,
): string {
  const table = manifest[DEFERRED_TABLE_MODULE];
  if (!table) throw new Error(`the engine build has no ${DEFERRED_TABLE_MODULE} in its manifest`);
  const pattern = pagesWithoutTablePattern(features);
  // `<base href>` is the portal's base path (server/spa/tenantSite.ts fills it in per request).
  return (
    '<script>(function(){var b=new URL(document.baseURI).pathname,p=location.pathname;' +
    `if(p.indexOf(b)===0&&!/${pattern}/i.test(p.slice(b.length))){var l=document.createElement("link");` +
    `l.rel="modulepreload";l.crossOrigin="";l.href="./${table.file}";document.head.appendChild(l)}})()</script>`
  );
}

/** The engine's page with the script, at the end of its head. */
export function withDeferredScreensPreload(template: string, manifest: Manifest): string {
  if (!template.includes('</head>')) throw new Error("the engine's index.html has no </head>");
  return template.replace('</head>', `  ${deferredScreensPreload(manifest)}\n  </head>`);
}
