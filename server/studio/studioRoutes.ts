import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { validateTenantSource } from '../../tenant/validateTenant';
import { clashesWithOtherTenants } from '../../tenant/loadTenants';
import { byPosition } from '../../tenant/issues';
import { parseJsonValue } from '../../tenant/jsonSource';
import type { ResolvedTenant, TenantIssue } from '../../tenant/types';
import { tenantPageInput } from '../../tenant/page/tenantPage';
import { renderTenantHtml } from '../../tenant/page/renderTenantHtml';
import { loadThemePresets, REPO_ROOT } from '../../tenant/sources';
import type { AuthService } from '../auth/authService';
import { MAGIC_LINK_PURPOSE } from '../auth/authService';
import { hashToken, newSecretToken } from '../auth/tokens';
import type { Database } from '../db/database';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors';
import { noStore } from '../http/securityHeaders';
import { BASE_PLACEHOLDER, sendPage } from '../spa/tenantSite';
import { insertLoginToken } from '../store/authStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import { authStateKey } from '../../engine/domain/sessionStorageKeys';
import { applyMinimalEdits } from './minimalEdit';
import { studioLocalOnly } from './studioGuard';
import { lineDiff } from './lineDiff';
import {
  displayName,
  fileIdOf,
  listTenantFiles,
  readTenantSource,
  tenantFilePath,
  writeTenantSource,
} from './studioFiles';
import { findUserByEmail } from '../store/userStore';
import { demoLoginOf, demoLoginsOf } from '../seed/demoLogins';
import { bringDataInHint, commandEnvironment, isDemoTenant, type CommandDatabase } from '../seed/seedDemo';
import { portalCommand } from '../runtime/portalCommand';

export interface StudioOptions {
  db: Database;
  auth: AuthService;
  /** The tenants this server serves: the preview's API and demo users come from one of them. */
  tenants: readonly ServerTenant[];
  distDir: string;
  /** Builds the engine into `<distDir>/.engine` when it is not there (the CLI's build, handed in). */
  buildEngine?: (engineDir: string) => Promise<unknown>;
  /**
   * Builds the studio into `<distDir>/.studio` when it is missing or older than its sources (the
   * CLI's Vite build, handed in: the server never imports studio/, docs/architecture.md "Layers").
   */
  buildStudio?: (studioDir: string) => Promise<unknown>;
  /** This server's database, which the hints' commands name (server/seed/seedDemo.ts). */
  commandDatabase?: CommandDatabase;
}

/** A draft the operator is typing: the last valid version is what the preview frames show. */
interface Draft {
  fileId: string;
  apiTenantId: string;
  tenant?: ResolvedTenant;
  version: number;
}

const MAX_DRAFTS = 50;

/** The drafts the operator is typing, by id: the newest MAX_DRAFTS. */
type Drafts = Map<string, Draft>;

/** The served tenant whose API a preview uses: the first of `ids` this server serves, else the first served. */
function apiTenantFor(tenants: readonly ServerTenant[], ids: unknown[]): ServerTenant {
  const tenant = ids.map((id) => tenants.find((t) => t.id === id)).find(Boolean) ?? tenants[0];
  if (!tenant) throw notFound('This server serves no tenant, so the studio has no API to preview with.');
  return tenant;
}

/**
 * The served tenant a demo login call names (the studio names the one `apiTenantFor` chose for its
 * preview), or 404 naming the ones it serves: never another tenant's answer under its name.
 */
function namedServedTenant(tenants: readonly ServerTenant[], id: unknown): ServerTenant {
  if (id === undefined) return apiTenantFor(tenants, []);
  const tenant = tenants.find((t) => t.id === id);
  if (!tenant)
    throw new HttpError(
      404,
      'tenant_not_served',
      `The studio's server does not serve ${typeof id === 'string' ? JSON.stringify(id.slice(0, 100)) : 'that tenant'}; it serves ${tenants.map((t) => t.id).join(', ') || 'no tenant'}.`,
    );
  return tenant;
}

/**
 * What `portal validate` says about a tenant file's text: its own problems and its clashes with
 * the other tenant files of its folder (an id or a host another tenant has), which would keep the
 * server from starting.
 */
function validateInFolder(fileId: string, source: string) {
  const result = validateTenantSource(displayName(fileId), source);
  const clashes = clashesWithOtherTenants(tenantFilePath(fileId), displayName(fileId), source, result.tenant);
  return { ...result, issues: [...result.issues, ...clashes].sort(byPosition) };
}

/** The text a save would write and what `portal validate` says about it. */
function check(fileId: string, data: unknown) {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw badRequest('invalid_body', 'Send the tenant as a JSON object in "data".');
  const { source: before, exists } = readTenantSource(fileId, { orNew: true });
  const after = applyMinimalEdits(before, data);
  return { before: exists ? before : '', after, exists, ...validateInFolder(fileId, after) };
}

const issuesOf = (result: { issues: TenantIssue[]; warnings: TenantIssue[] }) => ({
  issues: result.issues,
  warnings: result.warnings,
});

/**
 * `/studio` (docs/operators.md "Operators: the studio"): the tenant editor of `portal studio`,
 * `portal dev` and the demo. Mounted only with the development pages (server/app.ts devPages): it
 * reads and writes tenant files and opens sessions of demo users without a link, which no
 * production server may do.
 *
 * - `/studio/` the studio itself (its own Vite build, `<dist>/.studio`, built on first use);
 * - `/studio/api/…` tenant files, validation with the validator of `portal validate`, drafts,
 *   diff and save, demo users and their sessions;
 * - `/studio/preview/<draft>/…` the engine build with the draft's configuration inlined; its
 *   `/api` is the API of a tenant this server serves (the draft's id when served, else the first).
 */
export function studioRouter(options: StudioOptions): Router {
  const router = Router();
  const drafts: Drafts = new Map();
  // It writes files and opens sessions without a link: only for a browser on this machine, even
  // when the demo listens on every interface (`portal start --host 0.0.0.0`), never through a proxy
  // or under a foreign host name (studioGuard.ts; server/app.ts checks it before loading this too).
  router.use(studioLocalOnly);
  // Beside `.engine`, never inside a tenant's folder.
  studioPage(router, path.join(options.distDir, '.studio'), options);
  const api = Router();
  api.use(express.json({ limit: '4mb' }));
  api.use(noStore);
  tenantFileRoutes(api, options, drafts);
  insightsRoute(api, options);
  demoSessionRoutes(api, options);
  api.use(
    (_req, res) =>
      void res.status(404).json({ error: { code: 'not_found', message: 'No such studio endpoint.' } }),
  );
  router.use('/api', api);
  draftPreviewRoutes(router, path.join(options.distDir, '.engine'), drafts, options);
  return router;
}

/** The studio's own page and assets (its Vite build, built on first use when the CLI hands the build in). */
function studioPage(router: Router, studioDir: string, options: StudioOptions): void {
  router.get(['/', '/index.html'], async (_req, res) => {
    if (options.buildStudio) await options.buildStudio(studioDir);
    else if (!existsSync(path.join(studioDir, 'index.html')))
      throw notFound(`The studio is not built: start it with \`${portalCommand()} studio\`.`);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; frame-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'",
    );
    res.type('html').send(readFileSync(path.join(studioDir, 'index.html'), 'utf8'));
  });
  router.use('/assets', (req, res, next) =>
    express.static(path.join(studioDir, 'assets'), {
      immutable: true,
      maxAge: '1y',
      fallthrough: false,
      index: false,
    })(req, res, next),
  );
}

/** The tenant files: read, validated, drafted for the preview, diffed and saved with minimal edits. */
function tenantFileRoutes(api: Router, options: StudioOptions, drafts: Drafts): void {
  api.get('/schema', (_req, res) => {
    res.type('json').send(readFileSync(path.join(REPO_ROOT, 'schemas', 'tenant.schema.json'), 'utf8'));
  });

  /** The theme presets by name, so colour widgets show the contrast of the colours in effect. */
  api.get('/themes', (_req, res) => {
    res.json(loadThemePresets());
  });

  api.get('/tenants', (_req, res) => {
    res.json({ files: listTenantFiles(), served: options.tenants.map((t) => ({ id: t.id, name: t.name })) });
  });

  /** A tenant file (or the `portal new` template for a new id) with its problems. */
  api.get('/tenants/:fileId', (req, res) => {
    const fileId = fileIdOf(req.params.fileId);
    const { source, exists } = readTenantSource(fileId, { orNew: true });
    const result = validateInFolder(fileId, source);
    let data: unknown;
    try {
      data = parseJsonValue(source);
    } catch {
      throw badRequest(
        'invalid_json',
        `${displayName(fileId)} is not valid JSON; fix it in an editor first.`,
        result.issues,
      );
    }
    res.json({ fileId, exists, data, ...issuesOf(result) });
  });

  /** Every problem `portal validate` would report for the text a save would write. */
  api.post('/validate', (req, res) => {
    res.json(issuesOf(check(fileIdOf(req.body?.fileId), req.body?.data)));
  });

  /** Creates or updates a draft; its preview follows when the draft is valid. */
  api.put('/drafts/:draftId', (req, res) => {
    const draftId = String(req.params.draftId);
    if (!/^[a-z0-9-]{8,64}$/.test(draftId))
      throw badRequest('invalid_draft', 'A draft id is 8 to 64 lower-case letters, digits and hyphens.');
    const fileId = fileIdOf(req.body?.fileId);
    const result = check(fileId, req.body?.data);
    const apiTenant = apiTenantFor(options.tenants, [(req.body.data as { id?: unknown }).id, fileId]);
    const draft: Draft = drafts.get(draftId) ?? { fileId, apiTenantId: apiTenant.id, version: 0 };
    drafts.delete(draftId);
    drafts.set(draftId, draft);
    while (drafts.size > MAX_DRAFTS) drafts.delete(drafts.keys().next().value!);
    draft.fileId = fileId;
    draft.apiTenantId = apiTenant.id;
    if (result.tenant) {
      draft.tenant = result.tenant;
      draft.version += 1;
    }
    res.json({
      draftId,
      version: draft.version,
      previewUpToDate: Boolean(result.tenant),
      apiTenant: apiTenant.id,
      ...issuesOf(result),
    });
  });

  api.post('/diff', (req, res) => {
    const result = check(fileIdOf(req.body?.fileId), req.body?.data);
    res.json({
      exists: result.exists,
      file: displayName(fileIdOf(req.body?.fileId)),
      diff: lineDiff(result.before, result.after),
      ...issuesOf(result),
    });
  });

  /** Writes the file with minimal edits; a file with problems only when they were confirmed. */
  api.post('/save', async (req, res) => {
    const fileId = fileIdOf(req.body?.fileId);
    const result = check(fileId, req.body?.data);
    const confirmed = Number(req.body?.confirmedProblems);
    if (result.issues.length > 0 && confirmed !== result.issues.length) {
      throw badRequest(
        'unconfirmed_problems',
        `The file has ${result.issues.length} problem(s); confirm them to save it anyway.`,
        result.issues,
      );
    }
    if (result.after !== result.before) await writeTenantSource(fileId, result.after);
    res.json({
      saved: result.after !== result.before,
      file: displayName(fileId),
      command: portalCommand(),
      ...issuesOf(result),
    });
  });
}

/**
 * Retention insights of a tenant and period, from this server's database: operators
 * only, like everything under /studio (loopback, development pages); no subscriber route serves
 * them. The experiments are those of the tenant file as saved (else of the served tenant), so a
 * variant just added shows before the server is restarted.
 */
function insightsRoute(api: Router, options: StudioOptions): void {
  api.get('/insights', async (req, res) => {
    const tenantId = String(req.query.tenant ?? '');
    const { insightsPeriod, insightsPeriodProblem, isInsightsDay, retentionInsights } =
      await import('../insights/retentionInsights');
    const day = (name: 'from' | 'to') => {
      const value = req.query[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || !isInsightsDay(value))
        throw badRequest('validation_failed', `${name} is a day, YYYY-MM-DD, from 1970 to 2999.`, {
          fields: { [name]: 'invalid' },
        });
      return value;
    };
    const period = insightsPeriod(new Date(), day('from'), day('to'));
    const problem = insightsPeriodProblem(period);
    if (problem === 'after_to')
      throw badRequest('validation_failed', 'from is after to.', { fields: { from: 'after_to' } });
    if (problem === 'too_long')
      throw badRequest('validation_failed', 'The period is longer than 20 years.', {
        fields: { from: 'too_long' },
      });
    const served = options.tenants.find((t) => t.id === tenantId);
    const file = listTenantFiles().some((f) => f.id === tenantId)
      ? validateTenantSource(displayName(tenantId), readTenantSource(tenantId).source).tenant
      : undefined;
    const tenant = file ?? served;
    if (!tenant) throw notFound(`There is no tenant "${tenantId}" here.`);
    res.json(await retentionInsights(options.db, tenant, period, new Date()));
  });
}

/** The tenant's demo logins and their sessions for the preview frames. */
function demoSessionRoutes(api: Router, options: StudioOptions): void {
  /**
   * The tenant's seeded demo logins that this database holds (server/seed/demoLogins.ts): never a
   * list of the tenant's accounts, which on a demo server holds whoever signed up or was imported.
   * A tenant that is no demo has none (the seed leaves it empty, README "Demo tenants"): the answer
   * says so, with how its data comes in, and the studio shows that instead of the people.
   */
  api.get('/demo-users', async (req, res) => {
    const tenant = namedServedTenant(options.tenants, req.query.tenant);
    if (!isDemoTenant(tenant)) {
      // `command`: the `portal` command with the settings it needs to reach this server's files and
      // database, as the operator types it where this server runs.
      res.json({
        tenant: tenant.id,
        demo: false,
        users: [],
        hint: bringDataInHint(tenant.id, options.commandDatabase),
        command: `${commandEnvironment(options.commandDatabase)}${portalCommand()}`,
      });
      return;
    }
    const users = [];
    for (const login of demoLoginsOf(tenant)) {
      const user = await findUserByEmail(options.db, tenant.id, login.email);
      if (user)
        users.push({
          email: user.email,
          name: user.displayName ?? undefined,
          description: login.description,
        });
    }
    res.json({ tenant: tenant.id, demo: true, users });
  });

  /**
   * A session of a demo user for the preview frames, opened the way a magic link would (the path
   * `npm run bench` uses): development pages only, and only for the tenant's seeded demo logins
   * (as `/preview/api/sign-in`): the address must be one the seed makes, so an ordinary subscriber
   * who signed up on this server or was imported is refused, whatever the database holds. The
   * studio puts the session in session storage under the tenant's key, where the frames find it.
   */
  api.post('/sign-in', async (req, res) => {
    const tenant = namedServedTenant(options.tenants, req.body?.tenant);
    const email = typeof req.body?.email === 'string' ? req.body.email : '';
    // Whoever a publisher's tenant holds came from its order system: the studio signs none of them in.
    if (!isDemoTenant(tenant))
      throw forbidden(
        'not_a_demo_tenant',
        `${tenant.id} is no demo tenant: ${bringDataInHint(tenant.id, options.commandDatabase)}.`,
      );
    const login = demoLoginOf(tenant, email);
    if (!login)
      throw forbidden(
        'not_a_demo_login',
        `The studio signs in only the demo logins of ${tenant.id}: ${demoLoginsOf(tenant)
          .map((l) => l.email)
          .join(', ')}.`,
      );
    const user = await findUserByEmail(options.db, tenant.id, login.email);
    if (!user)
      throw new HttpError(
        409,
        'demo_data_missing',
        `The demo data of ${tenant.id} is not seeded in this database (${portalCommand()} db seed).`,
      );
    const token = newSecretToken();
    await insertLoginToken(options.db, tenant.id, {
      tokenHash: hashToken(token),
      email: login.email,
      purpose: MAGIC_LINK_PURPOSE,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const session = await options.auth.loginWithToken(tenant, token, 'studio');
    res.json({ storageKey: authStateKey(tenant.id), session });
  });
}

/** The live preview of a draft: the engine build with the draft inlined, its API a served tenant's. */
function draftPreviewRoutes(router: Router, engineDir: string, drafts: Drafts, options: StudioOptions): void {
  const draftOf = (req: Request): Draft => {
    const draft = drafts.get(String(req.params.draftId));
    if (!draft?.tenant)
      throw notFound('This draft has no valid version yet; fix the problems shown in the studio.');
    return draft;
  };

  router.use('/preview/:draftId/assets', (req, res, next) =>
    express.static(path.join(engineDir, 'assets'), { fallthrough: false, index: false })(req, res, next),
  );

  // The draft's screens call the API of a served tenant: the request goes on as `/t/<id>/api/…`.
  router.all('/preview/:draftId/api/{*rest}', (req: Request, res: Response, next) => {
    const draft = draftOf(req);
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const rest = ([] as string[]).concat((req.params as { rest?: string[] }).rest ?? []).join('/');
    // Cookies the tenant's routes set (the XSRF cookie) are scoped to the preview's path instead of
    // /t/<id>/, so the draft's own unsafe calls can echo them.
    const from = `Path=/t/${draft.apiTenantId}/`;
    const to = `Path=/studio/preview/${String(req.params.draftId)}/`;
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) => {
      if (name.toLowerCase() !== 'set-cookie') return setHeader(name, value);
      return setHeader(
        name,
        Array.isArray(value)
          ? value.map((cookie: string) => cookie.replace(from, to))
          : String(value).replace(from, to),
      );
    }) as typeof res.setHeader;
    req.url = `/t/${draft.apiTenantId}/api/${rest}${query}`;
    req.baseUrl = '';
    (
      req.app as unknown as { handle: (req: Request, res: Response, next: (error?: unknown) => void) => void }
    ).handle(req, res, next);
  });

  router.get('/preview/:draftId{/*path}', async (req, res) => {
    const draft = draftOf(req);
    if (!existsSync(path.join(engineDir, 'index.html'))) {
      if (!options.buildEngine)
        throw notFound(
          `The engine is not built: run \`${portalCommand()} build\` and open the preview again.`,
        );
      await options.buildEngine(engineDir);
    }
    const template = readFileSync(path.join(engineDir, 'index.html'), 'utf8');
    // The draft speaks as the served tenant whose API it uses: same session key, same demo data.
    const tenant = { ...draft.tenant!, id: draft.apiTenantId };
    const html = renderTenantHtml(template, tenantPageInput(tenant)).replace(
      BASE_PLACEHOLDER,
      `/studio/preview/${String(req.params.draftId)}/`,
    );
    // At the studio's own origin: no tenant script may run there.
    sendPage(res, tenant, html, { contactScript: false });
  });
}
