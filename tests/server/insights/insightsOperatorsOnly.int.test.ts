/**
 * The retention insights and offer experiments are operators' (issue 27): no route of a
 * production server serves them — not the subscribers' /api, not /studio (mounted only with the
 * development pages) — and a tenant's built page carries no experiment.
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
let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-insights-only-'));
  ({ app } = createApp({
    db: await getTestDatabase(),
    tenants: [tenant],
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
    distDir: path.join(work, 'dist'),
  }));
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

describe('insights are for operators only', () => {
  it('a production server registers no insights or experiments route', () => {
    const paths = routePaths((app as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => /insight|experiment/i.test(p))).toEqual([]);
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
