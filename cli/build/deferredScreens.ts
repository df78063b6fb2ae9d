import type { Manifest } from 'vite';
import { FEATURES } from '../../engine/features';
import type { FeatureDefinition } from '../../engine/features/types';
import { deferredScreenOwner } from '../../engine/features/types';
import { ROUTES } from '../../engine/domain/routeRefs';
import { authStateKey, sessionHintKey } from '../../engine/domain/sessionStorageKeys';

/** The deferred table's module (engine/features/deferred.ts), as Vite's manifest keys it. */
export const DEFERRED_TABLE_MODULE = 'features/deferred.ts';
/** The screens most visits start on, which the entry imports itself (engine/features/types.ts). */
export const ORDERS_SCREEN_MODULE = 'features/orders/OrdersScreen.tsx';
export const LOGIN_SCREEN_MODULE = 'features/login/LoginScreen.tsx';

/** The path of a route below the base, as a pattern react-router would match it by. */
const pathPattern = (routePath: string) =>
  routePath
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('\\/');

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
    .map((route) => pathPattern(route.ref.path));
  return `^(?:${paths.join('|')})?\\/?$`;
}

/**
 * The files the page links itself, which a lazy module's list of files leaves out: the entry, the
 * libraries and Rolldown's runtime (cli/build/engineBuild.ts `modulePreload`).
 */
export const LOADED_BY_THE_PAGE = /^assets\/(index|vendor|rolldown-runtime)-[\w-]+\.js$/;

/** A lazy module's script files that the page does not link already: its own and its static imports'. */
export function lazyModuleFiles(manifest: Manifest, key: string): string[] {
  const files: string[] = [];
  const visit = (module: string) => {
    const chunk = manifest[module];
    if (!chunk) throw new Error(`the engine build's manifest has no module ${module}`);
    if (chunk.isEntry || files.includes(chunk.file) || LOADED_BY_THE_PAGE.test(chunk.file)) return;
    files.push(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return files;
}

/** The keys a tab keeps a tenant's session under (engine/core/tenantSession.ts), without the tenant. */
const SESSION_KEY_PREFIXES = { session: authStateKey(''), hint: sessionHintKey('') };

/**
 * The page's inline script that starts the download of what the first screen needs beside the
 * entry, instead of a round trip after it (docs/testing.md "Speed and size"):
 * - on the orders page (and `/`, which sends there), the orders screen's files when the tab keeps
 *   a session or another tab has one to hand over, else the login screen's, where the visit goes
 *   (an embedded portal's page says how to sign in instead: nothing);
 * - on the login page, the login screen's files;
 * - on a page whose screen is in the deferred table (engine/features/deferred.ts), the table.
 * The session check is by prefix, as the script is the same for every tenant: another tenant's
 * session on the same origin costs the orders' files a download they are not used for, nothing
 * else. The server's page policy allows the script by its hash (server/http/securityHeaders.ts).
 */
export function deferredScreensPreload(
  manifest: Manifest,
  features: readonly FeatureDefinition[] = FEATURES,
): string {
  const table = manifest[DEFERRED_TABLE_MODULE];
  if (!table) throw new Error(`the engine build has no ${DEFERRED_TABLE_MODULE} in its manifest`);
  const ordersFiles = JSON.stringify(lazyModuleFiles(manifest, ORDERS_SCREEN_MODULE));
  const loginFiles = JSON.stringify(lazyModuleFiles(manifest, LOGIN_SCREEN_MODULE));
  const pattern = pagesWithoutTablePattern(features);
  // `<base href>` is the portal's base path (server/spa/tenantSite.ts fills it in per request).
  // Storage can refuse to be read (a sandboxed frame): then the visit counts as one without a session.
  return (
    `<script>(function(){var b=new URL(document.baseURI).pathname,p=location.pathname,L=${loginFiles},f;` +
    'if(p.indexOf(b)!==0)return;p=p.slice(b.length);' +
    'function has(n,k){try{var s=window[n];for(var i=0;i<s.length;i++)if(s.key(i).indexOf(k)===0)return 1}catch(e){}}' +
    `if(/^${pathPattern(ROUTES.login.path)}\\/?$/i.test(p))f=L;` +
    `else if(/^(?:${pathPattern(ROUTES.orders.path)})?\\/?$/i.test(p))` +
    `f=has("sessionStorage","${SESSION_KEY_PREFIXES.session}")||has("localStorage","${SESSION_KEY_PREFIXES.hint}")?${ordersFiles}:` +
    // An embedded portal's page says how to sign in instead (engine/app/access.tsx): nothing to ask for.
    '/"isEmbedded":true/.test((document.getElementById("portal-config")||{}).textContent)?[]:L;' +
    `else if(!/${pattern}/i.test(p))f=["${table.file}"];else return;` +
    'f.forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";' +
    'l.href="./"+h;document.head.appendChild(l)})})()</script>'
  );
}

/**
 * The engine's page with the script before its entry script: above the style sheet's link, as an
 * inline script after a style sheet waits for it to load before it runs.
 */
export function withDeferredScreensPreload(template: string, manifest: Manifest): string {
  const entry = /<script type="module"[^>]*>/.exec(template);
  if (!entry) throw new Error("the engine's index.html has no entry script");
  return template.replace(entry[0], `${deferredScreensPreload(manifest)}\n    ${entry[0]}`);
}
