/**
 * Every page the server serves has a Content-Security-Policy with `frame-ancestors` (docs/architecture.md
 * "Sign-in safety", response headers). The penetration test found the demo index page `/` without
 * either. This walks every GET route the app registers (read from its router stack, like the API
 * suite), the studio's, and the pages that need a real id or key (the payment page, a draft's
 * preview, a tenant on its own host), on a server with the development pages and the outbox viewer
 * on: each answer that a browser shows as a document must carry a policy naming frame-ancestors.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../server/auth/tokens';
import { PLAIN_PAGE_POLICY, applyCommonHeaders } from '../../../server/http/securityHeaders';
import { studioRouter } from '../../../server/studio/studioRoutes';
import { listen } from '../../support/apiClient';
import { appGetRoutes, studioRoutes } from './apiRouteList';
import { startSecurityFixture, type Answer, type SecurityFixture } from './securityFixture';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(tmpdir(), 'portal-page-policies-'));
const tenantsDir = path.join(work, 'tenants');
const previousTenantsDir = process.env.PORTAL_TENANTS_DIR;
let demo: SecurityFixture;

beforeAll(async () => {
  // The studio reads its tenant files here (a copy: the walk must not depend on tenants/).
  mkdirSync(tenantsDir);
  writeFileSync(
    path.join(tenantsDir, 'technikwelt.json'),
    readFileSync(path.join(ROOT, 'tenants', 'technikwelt.json'), 'utf8'),
  );
  process.env.PORTAL_TENANTS_DIR = tenantsDir;
  demo = await startSecurityFixture({ devPages: true, outboxViewerDir: path.join(work, 'outbox') });
  // A studio and an engine "built" into the dist folder (newer than the studio's sources, so the
  // studio does not build itself): the pages are about their headers, not their scripts.
  mkdirSync(path.join(demo.distDir, '.studio'), { recursive: true });
  writeFileSync(
    path.join(demo.distDir, '.studio', 'index.html'),
    '<!doctype html><html lang="en-GB"><head><title>Portal studio</title></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(path.join(demo.distDir, '.engine'), { recursive: true });
  writeFileSync(
    path.join(demo.distDir, '.engine', 'index.html'),
    '<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><base href="%PORTAL_BASE%"><!--portal:head--></head><body><div id="root"></div></body></html>',
  );
}, 120_000);

afterAll(async () => {
  await demo?.close();
  if (previousTenantsDir === undefined) delete process.env.PORTAL_TENANTS_DIR;
  else process.env.PORTAL_TENANTS_DIR = previousTenantsDir;
});

const DOCUMENT = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i;

/** A concrete path for a route: the tenant's id, an id of the right shape, a screen for wildcards. */
function fill(route: string, tenantId: string): string {
  return route
    .replace(/\{\/\*\w+\}/g, '/orders')
    .replace(/\/\{\*\w+\}/g, '/orders')
    .replace(/\*\w+/g, 'orders')
    .replace(/:tenantId/g, tenantId)
    .replace(/:(\w+)/g, 'x1')
    .replace(/[{}]/g, '');
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name.toLowerCase(), values]),
  );
}

describe('every page the server serves', () => {
  it('has a Content-Security-Policy with frame-ancestors: the index, the outbox, the preview, the studio, the portal, the payment and opt-in pages', async () => {
    const [tenant, other] = demo.tenants;
    const paths = new Set<string>();
    for (const route of appGetRoutes(demo.app)) paths.add(fill(route.path, tenant.id));
    const studio = studioRouter({
      db: demo.db,
      auth: demo.auth,
      tenants: demo.tenants,
      distDir: demo.distDir,
    });
    for (const route of studioRoutes(studio).filter((r) => r.method === 'GET'))
      paths.add(`/studio${fill(route.path, tenant.id)}`);

    // Pages that need a real id or key to be pages at all.
    const [payment] = await demo.db.query<{ id: string }>(
      `select id from payments where tenant_id = $1 and provider = 'sandbox' order by id limit 1`,
      [tenant.id],
    );
    expect(payment, 'the demo seed has a sandbox payment').toBeDefined();
    await demo.db.query('update payments set secret_hash = $3 where tenant_id = $1 and id = $2', [
      tenant.id,
      payment.id,
      hashToken('walk-key'),
    ]);
    const sandboxPage = `/t/${tenant.id}/api/payments/sandbox/${payment.id}?key=walk-key`;
    const draft = await demo.call({
      method: 'PUT',
      path: '/studio/api/drafts/draft-walk-0001',
      body: {
        fileId: 'technikwelt',
        data: JSON.parse(readFileSync(path.join(tenantsDir, 'technikwelt.json'), 'utf8')),
      },
    });
    expect(draft.status).toBe(200);
    const optInPage = `/t/${tenant.id}/opt-ins/confirm?token=${'T'.repeat(43)}`;
    for (const extra of [
      sandboxPage,
      optInPage,
      `/t/${tenant.id}/`,
      `/t/${tenant.id}/login?p=token-in-the-url`,
      `/t/${other.id}/orders`,
      '/studio/preview/draft-walk-0001/',
      '/studio/preview/draft-walk-0001/orders',
      '/no-such-page',
    ])
      paths.add(extra);

    const answers = new Map<string, Answer>();
    for (const page of paths)
      answers.set(page, await demo.call({ method: 'GET', path: page, headers: { accept: 'text/html' } }));
    // A tenant on its own host answers every path with its portal.
    answers.set(
      `http://${tenant.hosts[0]}/`,
      await demo.call({ method: 'GET', path: '/', headers: { accept: 'text/html', host: tenant.hosts[0] } }),
    );

    const documents = [...answers].filter(([, answer]) =>
      DOCUMENT.test(String(answer.headers['content-type'] ?? '')),
    );
    const failures = documents.flatMap(([page, answer]) => {
      const policy = answer.headers['content-security-policy'];
      if (typeof policy !== 'string') return [`${page} (${answer.status}): no Content-Security-Policy`];
      const ancestors = directives(policy).get('frame-ancestors');
      return ancestors?.length ? [] : [`${page} (${answer.status}): no frame-ancestors in ${policy}`];
    });
    expect(failures).toEqual([]);

    // The walk reached the pages it is about.
    const shown = new Set(documents.filter(([, a]) => a.status < 400).map(([page]) => page));
    for (const page of [
      '/',
      '/outbox',
      '/preview',
      '/studio/',
      `/t/${tenant.id}/`,
      `/t/${tenant.id}/orders`,
      `/t/${other.id}/orders`,
      sandboxPage,
      optInPage,
      '/studio/preview/draft-walk-0001/orders',
      `http://${tenant.hosts[0]}/`,
    ])
      expect(shown, page).toContain(page);
    // The demo index page is framed by nobody and runs nothing.
    expect(answers.get('/')!.headers['content-security-policy']).toBe(PLAIN_PAGE_POLICY);
    expect(answers.get('/outbox')!.headers['content-security-policy']).toBe(PLAIN_PAGE_POLICY);
  });

  it('gets a policy even when a page forgets its own: nothing runs, nobody frames it', async () => {
    const app = express();
    applyCommonHeaders(app);
    app.get('/forgot', (_req, res) => void res.type('html').send('<!doctype html><p>hello</p>'));
    app.get('/drawing', (_req, res) => void res.type('image/svg+xml').send('<svg/>'));
    app.get('/own', (_req, res) => {
      res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'self'");
      res.type('html').send('<!doctype html>');
    });
    app.get('/data', (_req, res) => void res.json({ ok: true }));
    const { baseUrl, close } = await listen(app);
    try {
      const policy = async (page: string) =>
        (await fetch(`${baseUrl}${page}`)).headers.get('content-security-policy');
      expect(await policy('/forgot')).toBe(PLAIN_PAGE_POLICY);
      expect(await policy('/drawing')).toBe(PLAIN_PAGE_POLICY);
      expect(await policy('/own')).toBe("default-src 'self'; frame-ancestors 'self'");
      expect(await policy('/data')).toBeNull();
      expect(directives(PLAIN_PAGE_POLICY).get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives(PLAIN_PAGE_POLICY).get('default-src')).toEqual(["'none'"]);
    } finally {
      await close();
    }
  });
});
