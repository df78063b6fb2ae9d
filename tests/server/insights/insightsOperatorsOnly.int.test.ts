/**
 * The retention insights and offer experiments are operators': a production server
 * serves them only on the operator API, to a tenant's key with scope read — not on the
 * subscribers' /api, not under /studio (mounted only with the development pages) — and a tenant's
 * built page carries no experiment.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import { tenantPageInput } from '../../../tenant/page/tenantPage';
import { loadTenantFiles } from '../../../tenant';
import { createKey } from '../../../cli/commands/keys';
import type { Database } from '../../../server/db/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

interface Layer {
  route?: { path: unknown };
  rawPath?: unknown;
  handle?: { stack?: Layer[] };
}

/** Every path a router stack answers, mounts joined, as text. */
function routePaths(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) return [`${prefix}${String(layer.route.path)}`];
    if (layer.handle?.stack) return routePaths(layer.handle.stack, `${prefix}${String(layer.rawPath ?? '')}`);
    return [];
  });
}

const tenant = makeServerTenant({
  id: uniqueTenantId('insights-only'),
  name: 'Insights only',
  hosts: ['insights-only.test'],
  features: ['cancellation'],
  offerExperiments: [
    {
      id: 'price-offers',
      flow: 'cancellation',
      variants: [
        { id: 'control', weight: 1, offers: ['A'] },
        { id: 'none', weight: 1, offers: [] },
      ],
    },
  ],
});
let app: Express;
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-insights-only-'));
  db = await getTestDatabase();
  ({ app } = createApp({
    db,
    tenants: [tenant],
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
    distDir: path.join(work, 'dist'),
  }));
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

describe('insights are for operators only', () => {
  it('a production server registers no insights or experiments route but the operator API’s', () => {
    const paths = routePaths((app as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(paths.length).toBeGreaterThan(50);
    const named = paths.filter((p) => /insight|experiment/i.test(p));
    expect(named.length).toBeGreaterThan(0);
    // Mount paths join with doubled slashes here: /t/:tenantId//operator/v1//insights and the like.
    expect(named.filter((p) => !/\/operator\/v1\/+insights$/.test(p))).toEqual([]);
  });

  it('the operator API answers the insights to a key with scope read only', async () => {
    const url = `${baseUrl}/t/${tenant.id}/operator/v1/insights?from=2026-11-02&to=2026-11-15`;
    expect((await fetch(url)).status).toBe(401);
    const context = { db, tenantIds: [tenant.id] };
    const importer = (await createKey(context, tenant.id, { scopes: ['import'] })).secret;
    const denied = await fetch(url, { headers: { authorization: `Bearer ${importer}` } });
    expect([denied.status, ((await denied.json()) as { error: { code: string } }).error.code]).toEqual([
      403,
      'insufficient_scope',
    ]);
    const reader = (await createKey(context, tenant.id, { scopes: ['read'] })).secret;
    const answer = await fetch(url, { headers: { authorization: `Bearer ${reader}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      tenant: tenant.id,
      from: '2026-11-02',
      to: '2026-11-15',
      experiments: [{ id: 'price-offers', variants: [{ id: 'control' }, { id: 'none' }] }],
    });
    const wrong = await fetch(url.replace('from=2026-11-02', 'from=2026-11-20'), {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(wrong.status).toBe(400);
  });

  it('answers the studio’s insights call and an /api guess with 404', async () => {
    for (const url of [
      `/t/${tenant.id}/api/insights`,
      `/t/${tenant.id}/api/retention-insights`,
      `/studio/api/insights?tenant=${tenant.id}`,
    ]) {
      const response = await fetch(`${baseUrl}${url}`);
      expect([url, response.status]).toEqual([url, 404]);
    }
  });

  it('keeps the experiments out of the config a built page inlines', async () => {
    const { tenants } = await loadTenantFiles();
    const technikwelt = tenants.find((t) => t.id === 'technikwelt')!;
    const withExperiment = { ...technikwelt, offerExperiments: tenant.offerExperiments };
    const page = tenantPageInput(withExperiment);
    expect(JSON.stringify(page.config)).not.toContain('offerExperiments');
    expect(JSON.stringify(page.config)).not.toContain('price-offers');
  });
});
