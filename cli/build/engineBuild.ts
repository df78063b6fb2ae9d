import react from '@vitejs/plugin-react';
import { build, type Manifest, type Plugin, type Rolldown } from 'vite';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ENGINE_DIR, ROOT_DIR } from '../paths';
import { LOADED_BY_THE_PAGE, withDeferredScreensPreload } from './deferredScreens';

/** Where the engine build lists each chunk's modules (bench/bundleMap.ts reads it). */
export const CHUNK_MODULES_FILE = path.join('.vite', 'chunk-modules.json');

/** Per JS chunk, its modules (repository paths) and their size in bytes before minification, largest first. */
export type ChunkModules = Record<string, [module: string, bytes: number][]>;

/**
 * Writes CHUNK_MODULES_FILE next to Vite's manifest, which names a chunk's source only for entries
 * and lazy modules: what fills the entry is only known while the bundle is made.
 */
const chunkModules: Plugin = {
  name: 'portal:chunk-modules',
  generateBundle(_options, bundle) {
    const chunks: ChunkModules = {};
    for (const output of Object.values(bundle)) {
      if (output.type !== 'chunk') continue;
      chunks[output.fileName] = Object.entries(output.modules)
        .filter(([, module]) => module.renderedLength > 0)
        .map(([id, module]): [string, number] => [
          path.isAbsolute(id) ? path.relative(ROOT_DIR, id) : id.replace(/^\0/, ''),
          module.renderedLength,
        ])
        .sort((a, b) => b[1] - a[1]);
    }
    this.emitFile({ type: 'asset', fileName: CHUNK_MODULES_FILE, source: JSON.stringify(chunks) });
  },
};

/**
 * react-router's production build. The package's exports name only its development build, under
 * every condition (a stop-gap of react-router 7 that has stayed), so a Vite build ships the
 * development warnings and their checks; the production build beside it has the same API without
 * them (docs/testing.md "Speed and size").
 */
const REACT_ROUTER_PRODUCTION = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist',
  'production',
  'index.mjs',
);

/**
 * Lets the bundler drop the parts of react-router the portal never uses. Its production build
 * makes its components and contexts at the top of one module (`var Link = React.forwardRef(…)`,
 * `React.createContext(…)`, `React.memo(…)`) without the `@__PURE__` mark bundlers go by, and
 * names each for React's developer tools (`Link.displayName = "Link"`): to a bundler both may have
 * side effects, so every export stayed, with the framework mode's forms, scroll restoration and
 * prefetching that the declarative router never runs. Marked pure and unnamed, what no module
 * imports is left out: 1.4 KB of gzipped JavaScript on every page (docs/testing.md "Speed and size").
 */
const REACT_ROUTER_CHUNK = /[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[^\\/]+\.mjs$/;
const reactRouterTreeShaking: Plugin = {
  name: 'portal:react-router-tree-shaking',
  transform: {
    filter: { id: REACT_ROUTER_CHUNK },
    handler(code) {
      const pure = code
        .replace(/^(var [\w$]+ = )(React\d*\.(?:forwardRef|createContext|memo)\()/gm, '$1/* @__PURE__ */ $2')
        .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '');
      return pure === code ? null : { code: pure, map: null };
    },
  },
};

/**
 * The engine's own helper for lazy imports (engine/app/modulePreload.ts) instead of Vite's, which
 * every build wraps each `import()` in: Vite resolves its helper as this module id.
 */
const VITE_PRELOAD_HELPER = /^\0vite\/preload-helper\.js$/;
const modulePreload: Plugin = {
  name: 'portal:module-preload',
  enforce: 'pre',
  resolveId: {
    filter: { id: VITE_PRELOAD_HELPER },
    handler: () => path.join(ENGINE_DIR, 'app', 'modulePreload.ts'),
  },
};

const engineModule = (pattern: string) => new RegExp(`[\\\\/]engine[\\\\/]${pattern}$`);

const ACCOUNT_DIALOGS = engineModule(
  '(account[\\\\/](DownloadDialogs|InvoiceRequestDialog|outcomes|dialogs)|ui[\\\\/](Dialog|ErrorDialog))\\.tsx?',
);

/**
 * How the engine's modules are cut into files (docs/decisions.md "Chunks cut by hand: one vendor
 * file, one account kit file"): by default Rolldown cuts along which lazy screens share a module,
 * which left the libraries in four pieces and the account kit in a dozen files of a few hundred
 * bytes each, every one a request and a gzip stream of its own.
 */
const CHUNK_GROUPS: Rolldown.CodeSplittingGroup[] = [
  // The libraries (React, the router, i18next, jotai): every page runs all of them, and a deploy
  // that changes only the portal's own code leaves the file, and the browser's copy of it, as is.
  { name: 'vendor', test: /[\\/]node_modules[\\/]/, priority: 3 },
  // What the entry runs stays in the entry's file: the pieces the lazy screens also import are not
  // split off into files of their own.
  { name: 'entry', test: engineModule('.+'), tags: ['$initial'], priority: 2 },
  // The account kit's part /orders runs, which the other signed-in screens share too: the
  // subscription card, loading and error views, downloads, dates, amounts (the rejected changes'
  // refunds), and the capability rules its
  // cards and the orders list read (engine/domain/capabilityRule.ts and cardCapabilities.ts; the
  // table of every rule, capabilities.ts, loads with the screens that ask it by name); in a file
  // of their own they would be one request more on /orders. The menu (engine/app/shell/Sidebar.tsx)
  // too: it imports the kit (the "new" badge's state), so every page that shows it loaded both, as
  // two files that compressed apart. Not the whole kit: its dialogs load when one opens (next
  // group), the data export with the screens that offer it, the pager with the lists that page, the form fields, the offers' and
  // the address changes' parts with the flows that use them, and the address rules and their
  // formatting with the screens that show an address (on /orders only a purchase order's card,
  // which loads when the account has one: engine/features/orders/PurchaseOrdersSection.tsx).
  {
    name: 'account-kit',
    test: (id) =>
      !ACCOUNT_DIALOGS.test(id) &&
      [
        engineModule('account[\\\\/](?!Flow|flowRefusal|DataExportSection)[^\\\\/]+\\.tsx?'),
        engineModule('ui[\\\\/](Badge|Card)\\.tsx'),
        engineModule('app[\\\\/]shell[\\\\/](Sidebar|menuSection)\\.tsx?'),
        engineModule(
          'domain[\\\\/](dates|money|subscriptionTerm|purchaseOrders|capabilityRule|cardCapabilities|orderStatus|subscriptionKinds)\\.ts',
        ),
        engineModule('core[\\\\/]subscriptionsStore\\.ts'),
      ].some((pattern) => pattern.test(id)),
    // Only these modules: their imports keep their own places (in the entry, or with the flows).
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The features' subscription-page actions (engine/features/*/actions.ts): the subscription page
  // loads those of every enabled feature at once, so one file, not one request per feature.
  {
    name: 'subscription-actions',
    test: engineModule('features[\\\\/][^\\\\/]+[\\\\/]actions\\.ts'),
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The login page's forms shown on request (forgot password, register, a reset or confirmation
  // link's form) and the dev sign-in: one file, loaded when one is shown
  // (engine/features/login/LoginScreen.tsx).
  {
    name: 'login-forms',
    test: engineModule(
      'features[\\\\/]login[\\\\/](RegistrationForm|ConfirmRegistrationForm|ForgotPasswordForm|ResetPasswordForm|DevLoginForm|passwordErrors|refusalText)\\.tsx?',
    ),
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The ways into and out of the login: where a sign-in leads, how a page hands itself to the
  // login (engine/app/access.tsx), where a log-out leads (engine/app/afterLogout.ts) and the
  // login notices' names they share with the login screen: loaded by visitors without a session,
  // the login page and a log-out, as one file.
  {
    name: 'sign-in',
    test: engineModule(
      '(domain[\\\\/](returnTo|loginNotices)|app[\\\\/](signInRedirects|afterLogout))\\.tsx?',
    ),
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The notices of a disabled feature and of an unknown path (engine/app/router.tsx) with the
  // fallback contact they share with the flows that offer it: one file, not three.
  {
    name: 'notices',
    test: engineModule('core[\\\\/](FeatureDisabled|NotFound|FallbackContact)\\.tsx'),
    includeDependenciesRecursively: false,
    priority: 1,
  },
  // The account kit's dialogs (a download's, an invoice request's, an error's): /orders loads them
  // when one opens (engine/features/orders), the subscription page with its screen.
  { name: 'account-dialogs', test: ACCOUNT_DIALOGS, includeDependenciesRecursively: false, priority: 1 },
];

/**
 * Builds the engine once for every tenant (docs/architecture.md "Building tenants"). Relative asset URLs
 * (`base: './'`) let the same files work under `/` and `/t/<id>/`; the server fills in <base href>.
 */
export async function buildEngine(outDir: string): Promise<{ manifest: Manifest; template: string }> {
  await build({
    root: ENGINE_DIR,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [modulePreload, react(), reactRouterTreeShaking, chunkModules],
    resolve: {
      alias: [
        {
          find: 'use-sync-external-store/shim',
          replacement: path.join(ENGINE_DIR, 'app', 'useSyncExternalStoreShim.ts'),
        },
        { find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION },
      ],
    },
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      sourcemap: false,
      target: 'es2022',
      reportCompressedSize: false,
      // Every browser the portal supports has <link rel="modulepreload">. A lazy module's list of
      // files to ask for (in the entry or a lazy file, on every page) leaves out the ones the page
      // has loaded before any lazy import runs (the entry, the libraries); the page's own list
      // (its `<link rel="modulepreload">`s, for the libraries to load beside the entry) keeps them.
      modulePreload: {
        polyfill: false,
        resolveDependencies: (_module, files, { hostType }) =>
          hostType === 'js' ? files.filter((file) => !LOADED_BY_THE_PAGE.test(file)) : files,
      },
      rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
    },
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  // Written back, so every reader of the engine's page (the studio's preview too) has the script.
  const template = withDeferredScreensPreload(
    readFileSync(path.join(outDir, 'index.html'), 'utf8'),
    manifest,
  );
  writeFileSync(path.join(outDir, 'index.html'), template);
  return { manifest, template };
}

/**
 * The files a tenant needs, following Vite's manifest: everything statically reachable from the
 * entry, plus the lazy screens of the tenant's enabled features and what they import. A screen's
 * feature is the folder it lives in (`features/<id>/…`).
 */
export function filesForTenant(manifest: Manifest, enabledFeatureIds: ReadonlySet<string>): Set<string> {
  const files = new Set<string>();
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    chunk.css?.forEach((file) => files.add(file));
    chunk.assets?.forEach((file) => files.add(file));
    chunk.imports?.forEach(visit);
    for (const dynamicKey of chunk.dynamicImports ?? []) {
      const featureId = /^features\/([^/]+)\//.exec(dynamicKey)?.[1];
      if (featureId === undefined || enabledFeatureIds.has(featureId)) visit(dynamicKey);
    }
  };
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('engine build has no entry in its manifest');
  visit(entry[0]);
  return files;
}

/**
 * The files a page loads, in order: the entry and what it imports statically (the page's
 * `<link rel="modulepreload">`s), then each lazy module the page renders (its screen; the menu on a
 * signed-in page), keyed as in the manifest (`features/orders/OrdersScreen.tsx`), with what that
 * imports statically. Lazy imports inside them are not followed: they load only when used.
 */
export function filesForPage(manifest: Manifest, lazyModules: readonly string[]): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the engine build's manifest has no module ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
    chunk.css?.forEach((file) => files.add(file));
  };
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('engine build has no entry in its manifest');
  visit(entry[0]);
  lazyModules.forEach(visit);
  return [...files];
}
