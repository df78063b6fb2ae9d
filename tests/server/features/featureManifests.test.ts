/**
 * The server's feature manifests (server/featureManifest.ts) and their one list, server/features.ts
 * (docs/architecture.md "Add a feature: the checklist"): every folder that mounts /api routes or
 * keeps personal data declares a manifest and is listed; ids are the folders' names and the
 * engine's feature ids; the routers derived from the list are the same routers in the same order
 * as the hand-kept mount list they replace; jobs, mail job kinds and account events are declared
 * once and match what the folders' code does.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiRouters, sharedServices, type ApiDeps } from '../../../server/apiRoutes';
import {
  featureJobs,
  featureMailJobs,
  featureRouters,
  type FeatureManifest,
} from '../../../server/featureManifest';
import { SERVER_FEATURES } from '../../../server/features';
import { PERSONAL_DATA_CATALOGUE } from '../../../server/privacy/catalogue';
import { ACCOUNT_EVENT_TYPES } from '../../../server/events/eventTypes';

const root = path.resolve(__dirname, '../../..');
const serverDir = path.join(root, 'server');

/** Folders whose routers are no /api feature's: app.ts mounts them elsewhere, or they are plumbing. */
const NOT_API_FEATURES: Record<string, string> = {
  preview: 'the development pages (/preview), mounted by server/app.ts',
  studio: 'the portal studio (/studio), mounted by server/app.ts',
  spa: "a tenant's site (its built pages), mounted by server/app.ts after /api",
  tenancy: "gatedSlice's wrapper router around a feature's slice",
};

const folders = readdirSync(serverDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [path.join(dir, entry.name)]
        : [],
  );

const mountsRoutes = (folder: string) =>
  filesUnder(path.join(serverDir, folder)).some((file) => /\bRouter\(/.test(readFileSync(file, 'utf8')));

const deps: ApiDeps = {
  db: {} as never,
  auth: {} as never,
  mailer: {} as never,
  mailFrom: 'Kundenportal <no-reply@portal.example>',
  log: () => {},
  now: () => new Date('2026-11-29T12:00:00Z'),
  mode: 'production',
  oauth: {} as never,
};

/** The manifest each server/<folder>/manifest.ts exports, by folder. */
const manifestFiles = new Map<string, FeatureManifest[]>();
beforeAll(async () => {
  for (const folder of folders) {
    const file = path.join(serverDir, folder, 'manifest.ts');
    if (!existsSync(file)) continue;
    const module = (await import(file)) as Record<string, FeatureManifest>;
    manifestFiles.set(folder, Object.values(module));
  }
});

describe('the list of server features', () => {
  it('lists every manifest.ts, each once, under its folder name', () => {
    expect([...manifestFiles.values()].every((exports) => exports.length === 1)).toBe(true);
    const onDisk = [...manifestFiles].map(([folder, [manifest]]) => ({ folder, manifest }));
    for (const { folder, manifest } of onDisk) {
      expect(manifest.id, `server/${folder}/manifest.ts`).toBe(folder);
      expect(SERVER_FEATURES, `server/${folder}/manifest.ts is not in server/features.ts`).toContain(
        manifest,
      );
    }
    expect(SERVER_FEATURES).toHaveLength(onDisk.length);
  });

  it('has unique ids', () => {
    const ids = SERVER_FEATURES.map((feature) => feature.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a manifest for every folder that mounts routes or keeps personal data', () => {
    const missing = folders.filter(
      (folder) =>
        !manifestFiles.has(folder) &&
        (existsSync(path.join(serverDir, folder, 'personalData.ts')) ||
          (mountsRoutes(folder) && !(folder in NOT_API_FEATURES))),
    );
    expect(missing).toEqual([]);
  });

  it("uses the engine's feature id for every server folder the engine has a feature folder of", () => {
    const engineFeatures = readdirSync(path.join(root, 'engine/features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const ids = SERVER_FEATURES.map((feature) => feature.id);
    const onBothSides = engineFeatures.filter((id) => existsSync(path.join(serverDir, id)));
    expect(onBothSides.length).toBeGreaterThan(20);
    expect(onBothSides.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it("gates each slice by the slice's own feature, or a flag of its own", () => {
    const shared = sharedServices(deps);
    for (const feature of SERVER_FEATURES)
      for (const entry of feature.routers?.(deps, shared) ?? [])
        if ('slice' in entry && 'feature' in entry.slice)
          expect(entry.slice.feature, `a slice of server/${feature.id}`).toBe(feature.id);
  });
});

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean>; stack: Array<{ handle: { name: string } }> };
  handle?: { stack?: Layer[] };
}

/** A router by its first route and its number of routes, `gated` when gatedSlice wraps it. */
function label(router: unknown): string {
  const stack = (router as { stack: Layer[] }).stack;
  const routes: string[] = [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers)
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on) routes.push(`${method.toUpperCase()} ${String(layer.route.path)}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
  };
  walk(stack);
  const gated =
    stack.length > 1 &&
    stack.slice(0, -1).every((layer) => layer.route?.stack[0]?.handle.name === 'gate') &&
    Boolean(stack.at(-1)?.handle?.stack);
  const unique = [...new Set(routes)];
  return `${gated ? 'gated ' : ''}${unique[0]} (${unique.length})`;
}

describe('the routers derived from the manifests', () => {
  // The mount list as server/apiRoutes.ts kept it by hand before the manifests (and the features
  // added since, in their place), read from the routers it built: a manifest left out of the list,
  // or a router moved, changes it.
  const BEFORE = [
    'POST /login/magic-link (9)',
    'POST /login/oauth (1)',
    'gated POST /kicker-auth/login (4)',
    'POST /login/order-number (2)',
    'GET /subscriptions/:id/licenses/:licenseId/accept (4)',
    'GET /subscriptions (2)',
    'gated POST /subscriptions (3)',
    'GET /subscriptions/:id/payment-history (8)',
    'GET /purchase-orders (7)',
    'GET /business-partners (1)',
    'GET /files/:key (1)',
    'gated POST /subscriptions/acceptAllRecommendations (2)',
    'gated GET /subscriptions/:id/cancellation-reasons (4)',
    'GET /subscriptions/:id/recommendations (5)',
    'GET /payments/sandbox.js (4)',
    'GET /payments/hosted.js (4)',
    'GET /payments/hosted.js (4)',
    'gated POST /subscriptions/:id/phase-upgrade (1)',
    'GET /subscriptions/:id/holiday-service (4)',
    'GET /subscriptions/:id/payment-details (5)',
    'GET /subscriptions/:id/complaint (3)',
    'GET /subscriptions/:id/business-partners/:bpNumber/opt-ins (5)',
    'GET /subscriptions/:id/business-partners (3)',
    'gated POST /e-cards (3)',
    'GET /e-card/images/:file (1)',
    'gated POST /link-email (3)',
    'gated GET /opt-in/providers/:provider (3)',
    'GET /subscriptions/:id/licenses (11)',
    'GET /faq (1)',
    'gated GET /issue-calendar/publications (4)',
    'gated POST /contact (3)',
    'GET /user-id,/sso-profile/getSpektrumUserId (1)',
    'gated GET /sso-profile/getProfile (7)',
    'POST /data-export (2)',
    'gated GET /loyalty-programme/tiers (6)',
    'POST /client-errors (1)',
  ];

  it('are the routers of the hand-kept list, in its order', () => {
    expect(apiRouters(deps).routers.map(label)).toEqual(BEFORE);
  });

  it('come from the features that own them', () => {
    const mounted = featureRouters(SERVER_FEATURES, deps, sharedServices(deps));
    expect(mounted.map(({ feature, gated }) => `${gated ? 'gated ' : ''}${feature}`)).toEqual([
      'auth',
      'auth',
      'gated auth',
      'auth',
      'multi-user-licenses',
      'subscription',
      'gated link-subscription',
      'subscription',
      'orders',
      'business-partners',
      'account',
      'gated renewal',
      'gated cancellation',
      'offers',
      'payments',
      'payments',
      'payments',
      'gated phase-upgrade',
      'holiday-service',
      'payment-method-change',
      'issue-complaint',
      'opt-ins',
      'address-change',
      'gated e-card',
      'e-card',
      'gated email-widget',
      'gated opt-in-widget',
      'multi-user-licenses',
      'faq',
      'gated issue-calendar',
      'gated contact',
      'external-page',
      'gated sso-profile-page',
      'data-export',
      'gated loyalty-programme',
      'client-errors',
    ]);
  });

  it('refuses an anchor that names no feature with routers of its own', () => {
    const stray: FeatureManifest = {
      id: 'stray',
      routers: () => [{ router: apiRouters(deps).paymentCallbacks, before: 'no-such-feature' }],
    };
    expect(() => featureRouters([...SERVER_FEATURES, stray], deps, sharedServices(deps))).toThrow(
      /"stray" is anchored to "no-such-feature"/,
    );
  });
});

describe('what else the manifests declare', () => {
  it('starts the jobs main.ts started by hand, in the same order', () => {
    expect(featureJobs(SERVER_FEATURES).map((job) => job.name)).toEqual([
      'due changes',
      'e-cards',
      'invoice documents',
      'retention summary',
    ]);
  });

  it('resolves every mail job kind, each declared once', () => {
    expect(Object.keys(featureMailJobs(SERVER_FEATURES)).sort()).toEqual(
      ['bulk-renewal', 'email-widget', 'email-zip', 'magic-link', 'register', 'reset'].sort(),
    );
    const twice: FeatureManifest = { id: 'twice', mailJobs: { reset: async () => null } };
    expect(() => featureMailJobs([...SERVER_FEATURES, twice])).toThrow(
      /"reset" is declared by "auth" and "twice"/,
    );
  });

  it("derives the personal-data catalogue, each slice's manifest under its feature", () => {
    const declared = SERVER_FEATURES.filter((feature) => feature.personalData);
    expect(PERSONAL_DATA_CATALOGUE).toEqual(declared.map((feature) => feature.personalData));
    for (const feature of declared) expect(feature.personalData!.slice).toBe(feature.id);
    const withFile = folders.filter((folder) => existsSync(path.join(serverDir, folder, 'personalData.ts')));
    expect(declared.map((feature) => feature.id).sort()).toEqual(withFile.sort());
  });

  it('declares every account event type, each where the code records it', () => {
    const declared = new Set(SERVER_FEATURES.flatMap((feature) => feature.events ?? []));
    expect([...ACCOUNT_EVENT_TYPES].filter((type) => !declared.has(type))).toEqual([]);
    for (const feature of SERVER_FEATURES) {
      // The type literals of the folder's recordEvent calls (server/events/recordEvent.ts): the
      // arguments before the event's data object, a conditional's two types included.
      const recorded = new Set(
        filesUnder(path.join(serverDir, feature.id)).flatMap((file) =>
          [...readFileSync(file, 'utf8').matchAll(/recordEvent\(([^;{]*)/g)].flatMap((call) =>
            [...call[1].matchAll(/'([a-z_]+\.[a-z_]+)'/g)].map((literal) => literal[1]),
          ),
        ),
      );
      expect([...(feature.events ?? [])].sort(), `server/${feature.id}`).toEqual([...recorded].sort());
    }
  });
});
