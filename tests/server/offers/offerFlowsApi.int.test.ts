/**
 * The calls of cancellation, renewal, bulk renewal and upgrade (account-flows.md §4, §5, §7, §8)
 * against the seeded demo data: each answer, each refusal, the sandbox payment page's outcomes,
 * idempotent accepts and the once-only settlement of a payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DEMO_EMAIL } from '../../../server/seed';
import { demoLoginsOf } from '../../../server/seed/demoLogins';
import type { Subscription } from '../../../schemas/generated/subscription';
import { addDays } from '../../../engine/domain/dates';
import type { Database } from '../../../server/db/database';
import { uniqueTenantId } from '../../support/database';
import { browserLikeClient } from '../../support/apiClient';
import {
  fullOfferFlowTenant,
  offerFlowTenant,
  startOfferFlows,
  type Client,
  type OfferFlowsServer,
} from '../../support/offerFlowsHarness';

const flows = fullOfferFlowTenant('offers');
const bare = offerFlowTenant(uniqueTenantId('offers-bare'), []);
const clock = new Date();
let server: OfferFlowsServer;
let baseUrl: string;
let db: Database;

const signIn: OfferFlowsServer['signIn'] = (...args) => server.signIn(...args);
const mails: OfferFlowsServer['mails'] = (to) => server.mails(to);
const subscriptions = (client: Client): Promise<Subscription[]> => server.subscriptions(client);
const payOnSandbox: OfferFlowsServer['payOnSandbox'] = (url, body) => server.payOnSandbox(url, body);
const renewable = (list: Subscription[], publication = 'OFP') =>
  list.find(
    (s) => s.isRenewal && s.publication === publication && s.orderStatus === 'A' && !s.renewal?.autoRenewal,
  )!;

/**
 * The renewals the subscription took have run the months they bought (as some years on): it may be
 * renewed again (engine/domain/lifecycle.ts isRenewed). The tests below renew the same subscription
 * one after another, each for a flow of its own.
 */
const renewalsRunOut = (subscriptionId: string) =>
  db.query(
    `update offer_acceptances set created_at = created_at - interval '5 years', applied_at = applied_at - interval '5 years'
      where tenant_id = $1 and subscription_id = $2 and source in ('renewal', 'bulk-renewal')`,
    [flows.id, subscriptionId],
  );

beforeAll(async () => {
  server = await startOfferFlows([flows, bare], clock);
  ({ baseUrl, db } = server);
});

afterAll(async () => server?.close());

describe('cancellation', () => {
  it('lists the reasons in the screen language and loads infos with dates and retention offers', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.isCancelable && !x.isRenewal,
    )!;
    const reasons = await client.get<Array<{ cancelReason: string; longDescription: string }>>(
      `/subscriptions/${s.id}/cancellation-reasons`,
    );
    expect(reasons.status).toBe(200);
    expect(reasons.body.map((r) => r.cancelReason)).toEqual(['PREIS', 'ZEIT', 'UMZUG', 'INHALT', 'SONST']);
    expect(reasons.body[0].longDescription).toBe('The subscription is too expensive for me.');
    const price = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=PREIS`);
    expect(price.body.cancellable).toBe(true);
    expect(price.body.issues.length).toBeGreaterThan(0);
    expect(price.body.issues[0].dateOfFirstSale > clock.toISOString().slice(0, 10)).toBe(true);
    expect(price.body.recommendations.map((r: { id: string }) => r.id)).toEqual([
      'OFP-KEEP-HALF',
      'OFP-KEEP-DIGITAL',
    ]);
    const moving = await client.get<any>(
      `/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`,
    );
    expect(moving.body.recommendations).toEqual([]);
    expect(
      (await client.get(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=NOPE`)).status,
    ).toBe(400);
  });

  it('cancels once: status AK, isCancelable cleared, an event and a confirmation e-mail; a second cancel is refused', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) =>
        x.publication === 'OFD' &&
        x.isCancelable &&
        x.mixType === 'DE' &&
        x.orderStatus === 'A' &&
        !(x as any).minimumTermEnd,
    )!;
    const infos = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`);
    if (!infos.body.cancellable) return; // the demo's minimum-term subscription is covered below
    const issue = infos.body.issues[1] ?? infos.body.issues[0];
    const tooLong = await client.post(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue,
      feedback: 'x'.repeat(256),
    });
    expect(tooLong.status).toBe(400);
    const notOffered = await client.post(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue: { issueNumber: '99/1999', dateOfFirstSale: '1999-01-01' },
    });
    expect(notOffered.status).toBe(400);
    // A field missing in the date is named under it.
    const halfADate = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue: { issueNumber: issue.issueNumber },
    });
    expect(halfADate.body.error.details).toEqual([
      { field: '/issue/dateOfFirstSale', message: 'is required' },
    ]);
    const done = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue,
      feedback: 'Moving to Spain.',
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      type: 'regular',
      effectiveDate: issue.dateOfFirstSale,
      issueNumber: issue.issueNumber,
    });
    const after = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(after.orderStatus).toBe('AK');
    expect(after.isCancelable).toBe(false);
    expect(after.validToOnSaleDate).toBe(issue.dateOfFirstSale);
    const again = await client.post<any>(`/subscriptions/${s.id}/cancel`, { reason: 'UMZUG', issue });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_cancelled');
    const events = await db.query<{ type: string; data: Record<string, unknown> }>(
      `select type, data from account_events where tenant_id = $1 and subject_id = $2 order by seq`,
      [flows.id, s.id],
    );
    // The infos loaded for the form count as the flow's start (once however often they load).
    expect(events.map((e) => e.type)).toEqual(['offer_flow.started', 'subscription.cancelled']);
    // The order system gets the feedback as the portal keeps it.
    expect(events[1].data).toMatchObject({ reason: 'UMZUG', reasonText: null, feedback: 'Moving to Spain.' });
    const mail = (await mails(SHARED_DEMO_EMAIL)).find((m) => m.subject.startsWith('Your cancellation'))!;
    expect(mail.text).toContain(s.orderNumber);
    expect(mail.text).toContain('revoke');
  });

  it('offers only an extraordinary termination before the minimum term ends, with a reason in words', async () => {
    const client = await signIn(flows);
    const list = await subscriptions(client);
    const candidates = list.filter((x) => x.publication === 'OFD' && x.isCancelable && x.orderStatus === 'A');
    let found = false;
    for (const s of candidates) {
      const infos = await client.get<any>(
        `/subscriptions/${s.id}/cancellation-infos?cancellationReason=SONST`,
      );
      if (infos.body.cancellable) continue;
      found = true;
      // The earliest possible date is named before it is confirmed: the minimum term's end.
      const [termEnd] = await db.query<{ end: string }>(
        `select details->>'minimumTermEnd' as "end" from subscriptions where tenant_id = $1 and id = $2`,
        [flows.id, s.id],
      );
      expect(infos.body.issues).toEqual([{ issueNumber: null, dateOfFirstSale: termEnd.end }]);
      const withoutWords = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
        reason: 'SONST',
        issue: null,
      });
      expect(withoutWords.status).toBe(400);
      expect(withoutWords.body.error.details.fields).toEqual({ reasonText: 'required' });
      const done = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
        reason: 'SONST',
        issue: null,
        reasonText: 'Serious illness.',
      });
      expect(done.status).toBe(200);
      expect(done.body.type).toBe('exceptional');
      expect(done.body.effectiveDate).toBe(termEnd.end);
    }
    expect(found).toBe(true);
  });

  it('refuses an externally managed subscription naming its order number, and a tenant without the feature', async () => {
    const second = (
      await db.query<{ email: string }>(
        `select u.email from users u join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
         join subscription_roles sr on sr.tenant_id = ubp.tenant_id and sr.bp_number = ubp.bp_number
         join subscriptions s on s.tenant_id = sr.tenant_id and s.id = sr.subscription_id
        where u.tenant_id = $1 and s.details->>'salesDocumentType' = 'WBZA' limit 1`,
        [flows.id],
      )
    )[0].email;
    const client = await signIn(flows, second);
    const wbza = (await subscriptions(client)).find((x) => x.salesDocumentType === 'WBZA')!;
    const refused = await client.post<any>(`/subscriptions/${wbza.id}/cancel`, {
      reason: 'PREIS',
      issue: null,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'externally_managed',
      details: { orderNumber: wbza.orderNumber },
    });
    const other = await signIn(bare);
    const s = (await subscriptions(other)).find((x) => x.isCancelable)!;
    const off = await other.get<any>(`/subscriptions/${s.id}/cancellation-reasons`);
    expect(off.status).toBe(403);
    expect(off.body.error.code).toBe('feature_disabled');
  });

  it('the anonymous check mails a sign-in link that opens the cancellation page of that subscription', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find((x) => x.isCancelable && x.publication === 'OFP')!;
    const zip = s.goodsRecipient?.zipcode ?? s.currentRoleBusinessPartner.zipcode!;
    const anonymous = browserLikeClient(baseUrl, `/t/${flows.id}/api`);
    await anonymous.get('/faq');
    const wrongZip = await anonymous.post<any>('/login/cancellation', {
      email: 'x@example.org',
      orderNumber: s.orderNumber,
      zipcode: '00000',
    });
    expect(wrongZip.body.error.details).toMatchObject({ status: 'verification_failed', method: 'zip' });
    const checked = await anonymous.post<any>('/login/cancellation', {
      email: 'x@example.org',
      orderNumber: s.orderNumber,
      zipcode: zip,
    });
    expect(checked.status).toBe(400);
    expect(checked.body.error.details.status).toBe('confirm_email');
    expect(checked.body.error.details.maskedEmail).toMatch(/^\w\*\*\*@/);
    // The link went to the address on record, not to the typed one.
    expect(await mails('x@example.org')).toEqual([]);
  });
});

describe("cancellation is the ordering party's", () => {
  it('refuses an invoice recipient the cancellation of the subscription they pay for', async () => {
    // The seed's second persona pays (RE) a relative's e-paper; the relative orders and receives it.
    const logins = demoLoginsOf(flows);
    let payer: { client: Client; subscription: Subscription } | undefined;
    for (const { email } of logins) {
      const client = await signIn(flows, email);
      const subscription = (await subscriptions(client)).find(
        (x) => x.roles.length === 1 && x.roles[0] === 'RE' && x.isCancelable,
      );
      if (subscription) payer = { client, subscription };
    }
    expect(payer).toBeDefined();
    const { client, subscription } = payer!;
    const reasons = await client.get<any>(`/subscriptions/${subscription.id}/cancellation-reasons`);
    expect([reasons.status, reasons.body.error?.details]).toEqual([
      403,
      { capability: 'cancellation', reason: 'notOrderingParty' },
    ]);
    const before = await db.query<{ order_status: string }>(
      `select order_status from subscriptions where tenant_id = $1 and id = $2`,
      [flows.id, subscription.id],
    );
    const cancel = await client.post<any>(`/subscriptions/${subscription.id}/cancel`, { reason: 'PREIS' });
    expect([cancel.status, cancel.body.error?.details?.reason]).toEqual([403, 'notOrderingParty']);
    const after = await db.query<{ order_status: string }>(
      `select order_status from subscriptions where tenant_id = $1 and id = $2`,
      [flows.id, subscription.id],
    );
    expect(after).toEqual(before);
  });

  it('mails no link for a bundle component: it ends with its bundle', async () => {
    let component: Subscription | undefined;
    for (const { email } of demoLoginsOf(flows)) {
      const client = await signIn(flows, email);
      component ??= (await subscriptions(client)).find(
        (x) => x.renewal?.renewalBundleComponent === 'S' && x.roles.includes('AG'),
      );
    }
    expect(component).toBeDefined();
    const anonymous = browserLikeClient(baseUrl, `/t/${flows.id}/api`);
    await anonymous.get('/faq');
    const answer = await anonymous.post<any>('/login/cancellation', {
      email: 'x@example.org',
      orderNumber: component!.orderNumber,
      zipcode: component!.currentRoleBusinessPartner.zipcode,
    });
    expect([answer.status, answer.body.error.code]).toEqual([409, 'bundle_component']);
  });

  it("takes the anonymous check's zip code from the ordering party only", async () => {
    const client = await signIn(flows, demoLoginsOf(flows)[1].email);
    // A gift the persona receives (WE): the giver is the ordering party, with another zip code.
    const gift = (await subscriptions(client)).find((x) => x.roles.join() === 'WE')!;
    expect(gift).toBeDefined();
    const anonymous = browserLikeClient(baseUrl, `/t/${flows.id}/api`);
    await anonymous.get('/faq');
    const recipientZip = await anonymous.post<any>('/login/cancellation', {
      email: 'x@example.org',
      orderNumber: gift.orderNumber,
      zipcode: gift.currentRoleBusinessPartner.zipcode,
    });
    expect(recipientZip.body.error.details).toMatchObject({ status: 'verification_failed', method: 'zip' });
  });
});

describe('renewal and upgrade', () => {
  it("mails the anonymous renewal's and upgrade's link on the ordering party's name only, not a gift recipient's", async () => {
    const recipient = await signIn(flows, demoLoginsOf(flows)[1].email);
    const gift = (await subscriptions(recipient)).find((x) => x.roles.join() === 'WE')!;
    const giver = await signIn(flows, demoLoginsOf(flows)[0].email);
    const asGiver = (await subscriptions(giver)).find((x) => x.id === gift.id)!;
    expect(asGiver.roles).toContain('AG');
    const anonymous = browserLikeClient(baseUrl, `/t/${flows.id}/api`);
    await anonymous.get('/faq');
    const login = (lastName: string, flow?: string) =>
      anonymous.post<any>('/login/order-number', { orderNumber: gift.orderNumber, lastName, flow });
    for (const flow of ['renewal', 'upgrade']) {
      expect((await login(gift.currentRoleBusinessPartner.lastName1!, flow)).body.error.details).toEqual({
        status: 'verification_failed',
        method: 'name',
      });
      expect(
        (await login(asGiver.currentRoleBusinessPartner.lastName1!, flow)).body.error.details,
      ).toMatchObject({
        status: 'confirm_email',
      });
    }
    // The plain sign-in by order number is the recipient's too: it opens their subscription's page.
    expect((await login(gift.currentRoleBusinessPartner.lastName1!)).body.error.details).toMatchObject({
      status: 'confirm_email',
    });
  });

  it('lists the renewal offers of the tenant category and refuses the cancellation category', async () => {
    const client = await signIn(flows);
    const s = renewable(await subscriptions(client));
    const offers = await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`);
    expect(offers.status).toBe(200);
    expect(offers.body.map((o) => o.id)).toEqual([
      'OFP-RENEW-12',
      'OFP-RENEW-DD',
      'OFP-RENEW-BUNDLE',
      'OFP-RENEW-24',
    ]);
    expect(offers.body[2].article).toMatchObject({ offerType: 'BU', currencyKey: 'EUR' });
    expect(offers.body[3].product.title).toContain('24 months');
    expect(
      (await client.get(`/subscriptions/${s.id}/recommendations?source=renewal&category=CANCEL`)).status,
    ).toBe(400);
  });

  it('applies an invoice renewal at once; a repeated accept is refused, renews nothing and the offer is no longer listed', async () => {
    const client = await signIn(flows);
    const s = renewable(await subscriptions(client));
    const first = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-12/accept?source=renewal`,
    );
    expect(first.body).toEqual({ url: null, status: 'applied' });
    const afterFirst = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(afterFirst.validToOnSaleDate! > s.validToOnSaleDate!).toBe(true);
    const second = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-12/accept?source=renewal`,
    );
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('offer_already_accepted');
    const listed = await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`);
    expect(listed.body.map((o) => o.id)).not.toContain('OFP-RENEW-12');
    // Renewed: no other renewal offer either, on the renewal page or in the bulk renewal, while the
    // renewal runs; nobody renews (and pays) twice for the same months.
    expect(listed.body).toEqual([]);
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=bulk-renewal`)).body,
    ).toEqual([]);
    const another = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-24/accept?source=renewal`,
    );
    expect(another.status).toBe(409);
    expect(another.body.error.code).toBe('already_renewed');
    expect((await subscriptions(client)).find((x) => x.id === s.id)!.validToOnSaleDate).toBe(
      afterFirst.validToOnSaleDate,
    );
    const mail = (await mails(SHARED_DEMO_EMAIL)).filter((m) => m.subject.includes('renew for 12 months'));
    expect(mail).toHaveLength(1);
  });

  it('a card offer waits for the sandbox: declined, then paid, applied once with a voucher', async () => {
    const client = await signIn(flows);
    const s = renewable(await subscriptions(client));
    await renewalsRunOut(s.id);
    const before = s.validToOnSaleDate!;
    const declined = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(declined.body.status).toBe('pending');
    expect(declined.body.url).toContain('/api/payments/sandbox/');
    const pendingPath = `/subscriptions/${s.id}/pending-payments/${declined.body.pendingPayment.id}`;
    expect((await client.get<any>(pendingPath)).body).toEqual({ status: 'pending' });
    const wrongKey = browserLikeClient(baseUrl, '');
    await wrongKey.get(`/t/${flows.id}/api/faq`);
    expect(
      (
        await wrongKey.post(`${new URL(declined.body.url, baseUrl).pathname}`, {
          key: 'x'.repeat(40),
          action: 'approve',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await payOnSandbox(declined.body.url, {
          action: 'pay',
          cardNumber: '4000 0000 0000 0002',
          expiry: '12/39',
          holder: 'Demo',
        })
      ).body.status,
    ).toBe('error');
    expect((await client.get<any>(pendingPath)).body).toEqual({ status: 'error' });
    expect((await subscriptions(client)).find((x) => x.id === s.id)!.validToOnSaleDate).toBe(before);

    // A failed payment leaves the offer open; once accepted again it waits for its payment and is taken.
    const repeat = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(repeat.body.status).toBe('pending');
    const again = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect([again.status, again.body.error.code]).toEqual([409, 'offer_already_accepted']);
    const [a, b] = await Promise.all([
      payOnSandbox(repeat.body.url, {
        action: 'pay',
        cardNumber: '4242424242424242',
        expiry: '12/39',
        holder: 'Demo',
      }),
      payOnSandbox(repeat.body.url, {
        action: 'pay',
        cardNumber: '4242424242424242',
        expiry: '12/39',
        holder: 'Demo',
      }),
    ]);
    expect([a.body.status, b.body.status]).toEqual(['success', 'success']);
    const settled = await client.get<any>(
      `/subscriptions/${s.id}/pending-payments/${repeat.body.pendingPayment.id}`,
    );
    expect(settled.body.status).toBe('success');
    expect(settled.body.crossSellingOffer.voucherCode).toMatch(/^BOOK-/);
    const after = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(after.validToOnSaleDate! > before).toBe(true);
    // The bundle is print + digital from the term it bought, which begins the day after the old one's last.
    expect(s.mixType).toBe('PR');
    expect(after.plannedUpgrade).toMatchObject({ mixType: 'KO', from: addDays(before, 1) });
    // While that format is planned no upgrade is offered (engine/domain/lifecycle.ts, tested
    // there); the tests below upgrade the same print subscription, as if the order system had
    // answered the renewal without the bundle's format.
    await db.query(
      `update subscriptions set details = details - 'plannedUpgrade' where tenant_id = $1 and id = $2`,
      [flows.id, s.id],
    );
    const events = await db.query<{ type: string }>(
      `select type from account_events where tenant_id = $1 and data->>'paymentId' = $2 order by seq`,
      [flows.id, repeat.body.pendingPayment.id],
    );
    expect(events.map((e) => e.type)).toEqual(['offer.accepted', 'payment.settled']);
    // The order system learns the format and its first day with the renewal.
    const [accepted] = await db.query<{ data: Record<string, unknown> }>(
      `select data from account_events where tenant_id = $1 and type = 'offer.accepted' and data->>'paymentId' = $2`,
      [flows.id, repeat.body.pendingPayment.id],
    );
    expect(accepted.data).toMatchObject({ change: 'extend', mixType: 'KO', formatFrom: addDays(before, 1) });
  });

  it('says so when the voucher codes are exhausted, and cancels a payment whose popup was closed', async () => {
    const client = await signIn(flows);
    const s = renewable(await subscriptions(client));
    await renewalsRunOut(s.id);
    const paypal = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-24/accept?source=renewal`,
    );
    expect((await payOnSandbox(paypal.body.url, { action: 'approve' })).body.status).toBe('success');
    const view = await client.get<any>(
      `/subscriptions/${s.id}/pending-payments/${paypal.body.pendingPayment.id}`,
    );
    expect(view.body.crossSellingOffer.voucherCode).toBeNull();
    const upgrade = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-UP-NOW/accept?source=upgrade&upgradeTime=NOW`,
    );
    // A page loaded again (a reload, another tab) learns of the open payment, whose offer it does not list.
    const upgrades = async () =>
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`)).body.map(
        (offer) => offer.id,
      );
    const open = await client.get<any[]>(`/subscriptions/${s.id}/pending-payments`);
    expect(open.body).toEqual([
      expect.objectContaining({ id: upgrade.body.pendingPayment.id, subscriptionId: s.id, currency: 'EUR' }),
    ]);
    expect(await upgrades()).not.toContain('OFP-UP-NOW');
    // While it is open no other offer is offered or taken: a renewal by direct debit beside it
    // would apply at once, and the open payment still could be paid and apply as well.
    const termBefore = (await subscriptions(client)).find((x) => x.id === s.id)!.validToOnSaleDate;
    expect((await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`)).body).toEqual(
      [],
    );
    const beside = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-DD/accept?source=renewal`,
    );
    expect([beside.status, beside.body.error?.code]).toEqual([409, 'offer_payment_open']);
    expect((await subscriptions(client)).find((x) => x.id === s.id)!.validToOnSaleDate).toBe(termBefore);
    const abandoned = await client.post<any>(
      `/subscriptions/${s.id}/pending-payments/${upgrade.body.pendingPayment.id}/abandon`,
    );
    expect(abandoned.body).toEqual({ status: 'canceled' });
    expect((await client.get<any[]>(`/subscriptions/${s.id}/pending-payments`)).body).toEqual([]);
    expect(await upgrades()).toContain('OFP-UP-NOW');
    expect(
      (
        await payOnSandbox(upgrade.body.url, {
          action: 'pay',
          cardNumber: '4242424242424242',
          expiry: '12/39',
          holder: 'Demo',
        })
      ).body.status,
    ).toBe('canceled');
  });

  it('plans an upgrade at the next cycle and refuses a time the offer does not have', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.roles.includes('AG') && x.orderStatus === 'A',
    )!;
    const offers = await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`);
    expect(offers.body.map((o) => o.upgradeOption.upgradeTime)).toEqual(['NOW', 'NEXT_CYCLE']);
    expect(
      (
        await client.post<any>(
          `/subscriptions/${s.id}/recommendations/OFP-UP-NEXT/accept?source=upgrade&upgradeTime=NOW`,
        )
      ).status,
    ).toBe(400);
    const planned = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-UP-NEXT/accept?source=upgrade&upgradeTime=NEXT_CYCLE`,
    );
    expect(planned.body).toEqual({ url: null, status: 'applied' });
    const [row] = await db.query<{ planned: { mixType: string } }>(
      `select details->'plannedUpgrade' as planned from subscriptions where tenant_id = $1 and id = $2`,
      [flows.id, s.id],
    );
    expect(row.planned.mixType).toBe('KO');
    // The subscription page shows it to the ordering party; the mix type changes only on that day.
    const after = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(after.plannedUpgrade).toEqual({
      from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      mixTypeDesc: 'Kombi: Print + E-Paper',
      mixType: 'KO',
    });
    expect(after.mixType).toBe(s.mixType);
  });

  it("names an upgrade's next payment for the subscription's billing period", async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.roles.includes('AG') && x.orderStatus === 'A' && !x.plannedUpgrade,
    )!;
    const [offer] = await db.query<{ monthly: string }>(
      `select offer->>'nextPaymentAmount' as monthly from offers where tenant_id = $1 and id = 'OFP-UP-NOW'`,
      [flows.id],
    );
    const monthly = Number(offer.monthly);
    const nextPayment = async () =>
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`)).body.find(
        (o) => o.id === 'OFP-UP-NOW',
      ).upgradeOption.nextPaymentAmount;
    const billedEvery = (months: string) =>
      db.query(
        `update subscriptions set details = jsonb_set(details, '{billingFrequency}', to_jsonb($3::text))
          where tenant_id = $1 and id = $2`,
        [flows.id, s.id, months],
      );
    await billedEvery('01');
    expect(await nextPayment()).toBe(monthly);
    await billedEvery('03');
    expect(await nextPayment()).toBe(Math.round(monthly * 300) / 100);
    await billedEvery('12');
    expect(await nextPayment()).toBe(Math.round(monthly * 1200) / 100);
    await billedEvery(s.billingFrequency ?? '01');
  });

  it('lists no upgrade from the next cycle on a subscription that ends before it', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.roles.includes('AG') && x.orderStatus === 'A' && !x.plannedUpgrade,
    )!;
    const times = async () =>
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`)).body.map(
        (o) => o.upgradeOption.upgradeTime,
      );
    expect(await times()).toEqual(['NOW', 'NEXT_CYCLE']);
    const [before] = await db.query<{ valid_to: string | null }>(
      `select to_char(valid_to, 'YYYY-MM-DD') as valid_to from subscriptions where tenant_id = $1 and id = $2`,
      [flows.id, s.id],
    );
    // Ends tomorrow, before any next cycle: accepting NEXT_CYCLE would be refused (date_after_end).
    await db.query(`update subscriptions set valid_to = current_date + 1 where tenant_id = $1 and id = $2`, [
      flows.id,
      s.id,
    ]);
    try {
      expect(await times()).toEqual(['NOW']);
    } finally {
      await db.query(`update subscriptions set valid_to = $3::date where tenant_id = $1 and id = $2`, [
        flows.id,
        s.id,
        before.valid_to,
      ]);
    }
  });

  it('offers no upgrade to the format a subscription has or will have, and refuses its accept (409 upgrade_format_held)', async () => {
    const client = await signIn(flows);
    const list = await subscriptions(client);
    const upgradeIds = async (id: string) => {
      const offers = await client.get<any[]>(`/subscriptions/${id}/recommendations?source=upgrade`);
      expect(offers.status).toBe(200);
      return offers.body.map((o: { id: string }) => o.id);
    };
    const accept = (id: string, offer: string, time: string) =>
      client.post<any>(
        `/subscriptions/${id}/recommendations/${offer}/accept?source=upgrade&upgradeTime=${time}`,
      );
    const counts = async (id: string) =>
      (
        await db.query<{ payments: string; acceptances: string }>(
          `select (select count(*) from payments where tenant_id = $1) as payments,
                  (select count(*) from offer_acceptances where tenant_id = $1 and subscription_id = $2) as acceptances`,
          [flows.id, id],
        )
      )[0];

    // Print + digital planned for the next cycle (the test above): "from today" is not offered either.
    const planned = list.find((x) => x.plannedUpgrade?.mixType === 'KO')!;
    expect(await upgradeIds(planned.id)).toEqual([]);
    const before = await counts(planned.id);
    const now = await accept(planned.id, 'OFP-UP-NOW', 'NOW');
    expect([now.status, now.body.error.code]).toEqual([409, 'upgrade_format_held']);
    expect(now.body.error.message).toMatch(/already has, or will have, the format/);
    expect(await counts(planned.id)).toEqual(before);

    // Print + digital already (as the order system sends it): no card surcharge for nothing.
    const other = list.find(
      (x) =>
        x.publication === 'OFP' &&
        x.roles.includes('AG') &&
        x.orderStatus === 'A' &&
        x.id !== planned.id &&
        !x.plannedUpgrade,
    )!;
    expect(await upgradeIds(other.id)).toEqual(['OFP-UP-NOW', 'OFP-UP-NEXT']);
    await db.query(`update subscriptions set mix_type = 'KO' where tenant_id = $1 and id = $2`, [
      flows.id,
      other.id,
    ]);
    try {
      expect(await upgradeIds(other.id)).toEqual([]);
      const unchanged = await counts(other.id);
      for (const [offer, time] of [
        ['OFP-UP-NOW', 'NOW'],
        ['OFP-UP-NEXT', 'NEXT_CYCLE'],
      ]) {
        const refused = await accept(other.id, offer, time);
        expect([refused.status, refused.body.error.code]).toEqual([409, 'upgrade_format_held']);
      }
      expect(await counts(other.id)).toEqual(unchanged);
    } finally {
      await db.query(`update subscriptions set mix_type = $3 where tenant_id = $1 and id = $2`, [
        flows.id,
        other.id,
        other.mixType,
      ]);
    }
  });

  it('refuses renewal where the capability rule does, and another user’s payment is not found', async () => {
    const client = await signIn(flows);
    const notRenewable = (await subscriptions(client)).find((x) => !x.isRenewal)!;
    const refused = await client.get<any>(`/subscriptions/${notRenewable.id}/recommendations?source=renewal`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('not_allowed');
    const [pending] = await db.query<{ id: string; subscription_id: string }>(
      `select p.id, a.subscription_id from payments p join offer_acceptances a on a.tenant_id = p.tenant_id and a.payment_id = p.id
        where p.tenant_id = $1 and p.status = 'pending' limit 1`,
      [flows.id],
    );
    const stranger = await signIn(
      flows,
      (
        await db.query<{ email: string }>(
          `select email from users where tenant_id = $1 and email <> $2 limit 1`,
          [flows.id, SHARED_DEMO_EMAIL],
        )
      )[0].email,
    );
    expect(
      (await stranger.get(`/subscriptions/${pending.subscription_id}/pending-payments/${pending.id}`)).status,
    ).toBe(404);
  });
});

describe('bulk renewal', () => {
  it('refuses credit card with direct debit, then renews what was chosen by invoice and direct debit', async () => {
    const client = await signIn(flows);
    const list = (await subscriptions(client)).filter(
      (x) => x.isRenewal && x.roles.includes('WE') && x.orderStatus === 'A',
    );
    expect(list.length).toBeGreaterThanOrEqual(2);
    const key = (s: Subscription) => `${s.id.slice(0, 3)}${s.orderNumber}`;
    const [a, b] = list;
    for (const s of [a, b]) await renewalsRunOut(s.id);
    const offersB = await client.get<any[]>(`/subscriptions/${b.id}/recommendations?source=bulk-renewal`);
    const dd = offersB.body.find((o) => o.paymentProviders[0].PAYMENT_PROVIDER === 'DIRECT_DEBIT')!;
    const conflict = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(a)]: {
          recommendationId: `${a.publication}-RENEW-BUNDLE`,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
        [key(b)]: { recommendationId: dd.id, paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }] },
      },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.body.error).toMatchObject({
      code: 'payment_conflict',
      message: "The payment methods 'Credit Card' and 'Direct Debit' cannot be used together.",
    });
    const done = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(b)]: { recommendationId: dd.id, paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }] },
      },
    });
    expect(done.body).toEqual({ url: null, status: 'applied' });
    const foreign = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        '9990000000001': {
          recommendationId: dd.id,
          paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }],
        },
      },
    });
    expect(foreign.status).toBe(404);
  });

  it('holds an invoice renewal for the payment of the other, and each page names every order it pays for', async () => {
    const client = await signIn(flows);
    const list = (await subscriptions(client)).filter(
      (x) => x.isRenewal && x.roles.includes('WE') && x.orderStatus === 'A',
    );
    const key = (s: Subscription) => `${s.id.slice(0, 3)}${s.orderNumber}`;
    const [a, b] = list;
    for (const s of [a, b]) await renewalsRunOut(s.id);
    const offersOf = async (s: Subscription) =>
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=bulk-renewal`)).body;
    const card = (await offersOf(a)).find((o) => o.paymentProviders[0].PAYMENT_PROVIDER === 'CREDIT_CARD');
    const invoice = (await offersOf(b)).find((o) => o.paymentProviders[0].PAYMENT_PROVIDER === 'INVOICE');
    expect(card?.paymentProviders[0].PAYMENT_PROVIDER, `a card offer for ${a.orderNumber}`).toBe(
      'CREDIT_CARD',
    );
    expect(invoice?.paymentProviders[0].PAYMENT_PROVIDER, `an invoice offer for ${b.orderNumber}`).toBe(
      'INVOICE',
    );
    const pending = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(a)]: { recommendationId: card.id, paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }] },
        [key(b)]: { recommendationId: invoice.id, paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }] },
      },
    });
    expect(pending.body.status).toBe('pending');
    // The invoice subscription's page shows the payment it waits for, which is the other's amount:
    // it names both orders, so the amount is not read as this subscription's.
    for (const s of [a, b]) {
      const [open] = (await client.get<any[]>(`/subscriptions/${s.id}/pending-payments`)).body;
      expect(open.id).toBe(pending.body.pendingPayment.id);
      expect(open.orderNumbers).toEqual([a.orderNumber, b.orderNumber].sort());
    }
    await client.post(`/subscriptions/${a.id}/pending-payments/${pending.body.pendingPayment.id}/abandon`);
  });

  it("lists a gift's recipient only the offers they pay online, and refuses the ordering party's ways to pay", async () => {
    const client = await signIn(flows, demoLoginsOf(flows)[1].email);
    const seeded = (await subscriptions(client)).find((x) => x.roles.join() === 'WE')!;
    // The seed's gift is cancelled (AK); running again and renewable, it is the recipient's to
    // renew in bulk (§6 "only business partners with role WE").
    const [before] = await db.query<{ order_status: string; details: unknown }>(
      `select order_status, details from subscriptions where tenant_id = $1 and id = $2`,
      [flows.id, seeded.id],
    );
    await db.query(
      `update subscriptions set order_status = 'A', details = details || '{"isRenewal": true}'
        where tenant_id = $1 and id = $2`,
      [flows.id, seeded.id],
    );
    try {
      const gift = (await subscriptions(client)).find((x) => x.id === seeded.id)!;
      const offers = await client.get<any[]>(`/subscriptions/${gift.id}/recommendations?source=bulk-renewal`);
      const providers = offers.body.map((o) => o.paymentProviders[0].PAYMENT_PROVIDER);
      expect(providers.length).toBeGreaterThan(0);
      expect(
        providers.every((p) => p === 'CREDIT_CARD' || p === 'PAYPAL'),
        providers.join(),
      ).toBe(true);
      // The category's offers paid by invoice are the ordering party's: left out, and refused.
      const [invoice] = await db.query<{ id: string }>(
        `select id from offers where tenant_id = $1 and publication = $2 and category = $3
           and payment_provider = 'INVOICE' and effect->>'kind' = 'extend'`,
        [flows.id, gift.publication, flows.renewal!.recommendationCategory],
      );
      expect(invoice).toBeDefined();
      expect(offers.body.map((o) => o.id)).not.toContain(invoice.id);
      const refused = await client.post<any>('/subscriptions/acceptAllRecommendations', {
        selectedRecommendations: {
          [`${gift.id.slice(0, 3)}${gift.orderNumber}`]: {
            recommendationId: invoice.id,
            paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }],
          },
        },
      });
      expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([
        403,
        'not_allowed',
        { orderNumber: gift.orderNumber },
      ]);
    } finally {
      await db.query(
        `update subscriptions set order_status = $3, details = $4 where tenant_id = $1 and id = $2`,
        [flows.id, seeded.id, before.order_status, before.details],
      );
    }
  });

  it('the anonymous login always answers 202 and mails a link only to an address on record with that name and zip', async () => {
    const anonymous = browserLikeClient(baseUrl, `/t/${flows.id}/api`);
    await anonymous.get('/faq');
    const unknown = await anonymous.post<any>('/login/bulk-renewal', {
      email: 'nobody@example.org',
      lastName: 'Nobody',
      zipcode: '12345',
    });
    expect(unknown.status).toBe(202);
    expect(
      (
        await anonymous.post<any>('/login/bulk-renewal', {
          email: 'nobody@example.org',
          lastName: 'x'.repeat(36),
          zipcode: '12345',
        })
      ).status,
    ).toBe(400);
    expect(await mails('nobody@example.org')).toEqual([]);
  });
});

describe('what the security review found', () => {
  it('keeps each flow to its own offers: no upgrade through the renewal source', async () => {
    const client = await signIn(flows);
    const s = renewable(await subscriptions(client));
    const asRenewal = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-UP-NEXT/accept?source=renewal&category=UPGRD`,
    );
    expect(asRenewal.status).toBe(404);
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal&category=UPGRD`)).body,
    ).toEqual([]);
  });

  it('takes a retention offer once a year, not again and again', async () => {
    const client = await signIn(flows);
    const s = (await subscriptions(client)).find(
      (x) =>
        x.publication === 'OFP' &&
        !x.isRenewal &&
        x.isCancelable &&
        x.orderStatus === 'A' &&
        x.roles.includes('AG') &&
        !x.retentionOffer,
    )!;
    const first = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-KEEP-HALF/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(first.body).toEqual({ url: null, status: 'applied' });
    const other = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-KEEP-DIGITAL/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('offer_already_used');
  });

  it('a cancellation voids an offer still waiting for its payment', async () => {
    const client = await signIn(flows);
    // Runs last: it cancels the renewable subscription the renewal tests above use.
    const s = (await subscriptions(client)).find(
      (x) => x.isRenewal && x.orderStatus === 'A' && x.isCancelable && x.publication === 'OFP',
    )!;
    const pending = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-UP-NOW/accept?source=upgrade&upgradeTime=NOW`,
    );
    expect(pending.body.status).toBe('pending');
    const infos = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`);
    const cancelled = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue: infos.body.issues[0],
      reasonText: infos.body.cancellable ? undefined : 'Moving.',
    });
    expect(cancelled.status).toBe(200);
    const paid = await payOnSandbox(pending.body.url, {
      action: 'pay',
      cardNumber: '4242424242424242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('canceled');
    const after = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(after.validToOnSaleDate).toBe(cancelled.body.effectiveDate);
    expect(after.mixType).toBe(s.mixType);
  });
});
