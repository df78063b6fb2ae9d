/**
 * An issued invoice names what it was issued for (docs/invoices.md "The product an invoice names";
 * migration 041): after an upgrade that applied at once, an invoice of an earlier day still names
 * the subscription as it was then, in each language, and one of the upgrade's day on names the new
 * product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OFFER_FLOW_FEATURES,
  offerFlowTenant,
  startOfferFlows,
  type OfferFlowsServer,
} from '../../support/offerFlowsHarness';
import { uniqueTenantId } from '../../support/database';
import { fetchFile, pdfText } from './pdfText';

const tenant = offerFlowTenant(
  uniqueTenantId('named'),
  [...OFFER_FLOW_FEATURES, 'payment-history', 'invoice-download'],
  { upgrade: { upgradeTimes: ['NOW', 'NEXT_CYCLE'] } },
);
let server: OfferFlowsServer;

beforeAll(async () => {
  server = await startOfferFlows([tenant]);
});

afterAll(async () => server?.close());

describe('the product an invoice names', () => {
  it('stays the one of the invoice’s day after an upgrade renamed the subscription', async () => {
    const client = await server.signIn(tenant, undefined, 'de-DE');
    const s = (await server.subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.mixType === 'PR' && x.roles.includes('AG') && x.orderStatus === 'A',
    )!;
    const history = await client.get<{
      items: Array<{ id: string; date: string; documentId: string | null }>;
    }>(`/subscriptions/${s.id}/payment-history`);
    const today = server.clock.toISOString().slice(0, 10);
    const invoice = history.body.items.find((item) => item.documentId && item.date < today)!;
    expect(invoice, 'an invoice issued before today').toBeDefined();
    const text = async (lang: string) =>
      (
        await pdfText(
          (
            await fetchFile(
              `${server.baseUrl}/t/${tenant.id}/api/subscriptions/${s.id}/invoices/${invoice.id}/download?lang=${lang}`,
              client.accessToken,
            )
          ).bytes,
        )
      ).text;
    const english = (await server.subscriptions(await server.signIn(tenant, undefined, 'en-GB'))).find(
      (x) => x.id === s.id,
    )!.displayName;
    expect(await text('de-DE')).toContain(s.displayName);
    expect(await text('en-GB')).toContain(english);

    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-UP-NOW/accept?source=upgrade&upgradeTime=NOW`,
    );
    expect(accepted.body.status).toBe('pending');
    const paid = await server.payOnSandbox(accepted.body.url, {
      action: 'pay',
      cardNumber: '4242424242424242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('success');
    const renamed = (await server.subscriptions(client)).find((x) => x.id === s.id)!;
    expect(renamed.displayName).not.toBe(s.displayName);

    const german = await text('de-DE');
    expect(german).toContain(s.displayName);
    expect(german).not.toContain(renamed.displayName);
    expect(await text('en-GB')).toContain(english);
  });
});
