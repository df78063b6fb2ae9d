/**
 * The calls of the holiday service, payment details, complaint, address and opt-in flows
 * (account-flows.md §4, §5, §7, §8) against the seeded demo data: answers, refusals, the
 * e-mails they send, and the changes that wait for their day (server/jobs/dueChanges.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { applyDueChanges } from '../../../server/jobs/dueChanges';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { recordEvent } from '../../../server/events/recordEvent';
import { deleteExpiredRows } from '../../../server/store/housekeepingStore';
import { goodsRecipientAddressChanged } from '../../../server/store/accountChangeStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

const FEATURES = [
  'holiday-redirect',
  'holiday-break',
  'holiday-download',
  'payment-method-change',
  'issue-complaint',
  'address-change',
  'opt-ins',
  'issue-download',
  'issue-history',
];
const PUBLICATIONS = [
  { publication: 'ACP', description: 'Account Post', kind: 'print', frequency: 'weekly' },
  { publication: 'ACS', description: 'Account Sunday', kind: 'print', frequency: 'sunday' },
  { publication: 'ACD', description: 'Account Digital', kind: 'digital', frequency: 'daily' },
];

function tenant(id: string, locale: 'de-DE' | 'en-GB', settings: Record<string, unknown> = {}): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: locale,
    locales: ['de-DE', 'en-GB'],
    features: FEATURES,
    publications: PUBLICATIONS,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    addressChange: { timedChanges: true, allowEmailChange: true },
    publicationBlacklists: { 'holiday-break': ['ACS'] },
    holidayService: { defaultMaxDuration: 6 },
    ...settings,
  });
}

const outbox = createTestOutbox('portal-changes-outbox-');
const german = tenant(uniqueTenantId('changes'), 'de-DE');
/** A publisher that keeps addresses as lines (the address-lines feature, §5). */
const withLines = tenant(uniqueTenantId('changes-lines'), 'de-DE', {
  features: [...FEATURES, 'address-lines'],
});
const british = tenant(uniqueTenantId('changes-gb'), 'en-GB', {
  // A type the order system has recorded for nobody yet, as a new publisher's every type is.
  optIns: { types: [{ type: 'EVENTS', description: { 'de-DE': 'Veranstaltungen', 'en-GB': 'Events' } }] },
  paymentMethodChange: {
    allowedChanges: {
      direct_debit: ['credit_card'],
      sepa: ['credit_card'],
      invoice: ['credit_card'],
      credit_card: ['credit_card'],
      paypal: ['credit_card'],
      none: ['credit_card'],
    },
  },
});
const clock = new Date();
const today = clock.toISOString().slice(0, 10);
const addDays = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
type Client = ReturnType<typeof browserLikeClient>;

const sessions = new Map<string, Client>();
async function signIn(t: ServerTenant, email = SHARED_DEMO_EMAIL): Promise<Client> {
  const key = `${t.id}/${email}`;
  if (sessions.has(key)) return sessions.get(key)!;
  const { client } = await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email });
  sessions.set(key, client);
  return client;
}

async function subscriptions(client: Client): Promise<Subscription[]> {
  const list = await client.get<Subscription[]>('/subscriptions');
  expect(list.status).toBe(200);
  return list.body;
}
const printOf = (list: Subscription[], publication = 'ACP') =>
  list.find(
    (s) =>
      s.publication === publication &&
      s.mixType === 'PR' &&
      s.orderStatus === 'A' &&
      s.roles.includes('AG') &&
      s.activeHolidayServiceType === null,
  )!;

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [german, british, withLines], { today: clock });
  const { app } = createApp({
    db,
    tenants: [german, british, withLines],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('holiday service', () => {
  it('sets up a break, shows it on the subscription, refuses a second one and cancels it', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const state = await client.get<any>(`/subscriptions/${s.id}/holiday-service`);
    expect(state.body).toMatchObject({
      types: ['redirect', 'break', 'download'],
      planned: null,
      maxWeeks: { redirect: 6, break: 6, download: 6 },
      earliestStart: addDays(1),
    });
    const issues = await client.get<any[]>(
      `/subscriptions/${s.id}/holiday-service/issues?dateFrom=${addDays(7)}&dateTo=${addDays(27)}`,
    );
    expect(issues.body.length).toBeGreaterThan(0);
    const tooEarly = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: today,
      dateTo: addDays(14),
    });
    expect(tooEarly.body.error.details.fields).toEqual({ dateFrom: 'too_early' });
    const tooLong = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: addDays(7),
      dateTo: addDays(7 + 43),
    });
    expect(tooLong.body.error.details.fields).toEqual({ dateTo: 'too_long' });
    const set = await client.post<Subscription>(`/subscriptions/${s.id}/holiday-service`, {
      subscriptionId: s.id,
      service: 'break',
      dateFrom: addDays(7),
      dateTo: addDays(27),
    });
    expect(set.status).toBe(200);
    expect(set.body.activeHolidayServiceType).toBe('break');
    expect(set.body.currentSuspension).toEqual({
      suspendedFromDate: addDays(7),
      suspendedToDate: addDays(27),
    });
    const second = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'redirect',
      dateFrom: addDays(30),
      dateTo: addDays(35),
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('holiday_service_active');
    const planned = await client.get<any>(`/subscriptions/${s.id}/holiday-service`);
    expect(planned.body.planned).toMatchObject({ type: 'break', dateFrom: addDays(7), isCancellable: true });
    const cancelled = await client.post<Subscription>(`/subscriptions/${s.id}/holiday-service/cancel`, {
      subscriptionId: s.id,
      service: 'break',
    });
    expect(cancelled.body.activeHolidayServiceType).toBeNull();
    expect(cancelled.body.currentSuspension).toBeNull();
    // Cancelled again from a tab that still showed it: nothing is planned any more.
    const again = await client.post<any>(`/subscriptions/${s.id}/holiday-service/cancel`, {
      subscriptionId: s.id,
      service: 'break',
    });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('holiday_service_not_planned');
    const subjects = (await outbox.mails(SHARED_DEMO_EMAIL)).map((m) => m.subject);
    expect(subjects).toContain(`Ihr Urlaubsservice bei ${german.name}`);
    expect(subjects).toContain(`Urlaubsservice storniert – ${german.name}`);
  });

  it('refuses a period whose several issues have all been dispatched, as it does one such issue', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    // Two issues on sale the day after tomorrow and the day after, both dispatched yesterday (an
    // order system that ships ahead of the sale day), alone in their period.
    const window = [addDays(2), addDays(3)];
    await db.query(
      `delete from issues where tenant_id = $1 and publication = $2 and date_of_first_sale between $3 and $4`,
      [british.id, s.publication, ...window],
    );
    for (const [i, day] of window.entries())
      await db.query(
        `insert into issues (tenant_id, publication, issue, issue_number, date_of_first_sale, date_of_first_shipping)
         values ($1, $2, $3, $3, $4, $5)`,
        [british.id, s.publication, `SHIPPED-${i}`, day, addDays(-1)],
      );
    const refused = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: window[0],
      dateTo: window[1],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('already_shipped');
    const state = await client.get<any>(`/subscriptions/${s.id}/holiday-service`);
    expect(state.body.planned).toBeNull();
  });

  it('needs a valid holiday address for a redirect and refuses a break for a blacklisted publication', async () => {
    const client = await signIn(german);
    const list = await subscriptions(client);
    const s = printOf(list);
    const bad = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'redirect',
      dateFrom: addDays(8),
      dateTo: addDays(20),
      businessPartner: {
        lastName1: 'Becker',
        street: 'Strandweg',
        zipcode: '12',
        city: 'Sylt',
        countryCode: 'DE',
      },
    });
    expect(bad.body.error.details.fields).toEqual({
      'businessPartner/streetNumber': 'required',
      'businessPartner/zipcode': 'too_short',
    });
    const abroad = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'redirect',
      dateFrom: addDays(8),
      dateTo: addDays(20),
      businessPartner: {
        lastName1: 'Becker',
        street: 'Main St',
        streetNumber: '1',
        zipcode: '10001',
        city: 'New York',
        countryCode: 'US',
      },
    });
    expect(abroad.body.error.details.fields).toEqual({ 'businessPartner/countryCode': 'not_supported' });
    // A postcode shorter than §9's four characters: the server holds the form's rule.
    const misshapen = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'redirect',
      dateFrom: addDays(8),
      dateTo: addDays(20),
      businessPartner: {
        lastName1: 'Becker',
        street: 'Strandweg',
        streetNumber: '3',
        zipcode: '251',
        city: 'Sylt',
        countryCode: 'DE',
      },
    });
    expect(misshapen.body.error.details.fields).toEqual({ 'businessPartner/zipcode': 'too_short' });
    const good = await client.post<Subscription>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'redirect',
      dateFrom: addDays(8),
      dateTo: addDays(20),
      businessPartner: {
        lastName1: 'Becker',
        street: 'Strandweg',
        streetNumber: '3',
        zipcode: '25980',
        city: 'Sylt',
        countryCode: 'DE',
      },
    });
    expect(good.body.activeHolidayServiceType).toBe('redirect');
    // The order system gets the holiday address it is to deliver to.
    const [set] = await db.query<{ address: Record<string, unknown> }>(
      `select data->'address' as address from account_events
        where tenant_id = $1 and type = 'holiday_service.set' and subject_id = $2 order by seq desc limit 1`,
      [german.id, s.id],
    );
    expect(set.address).toMatchObject({
      lastName1: 'Becker',
      street: 'Strandweg',
      zipcode: '25980',
      city: 'Sylt',
    });
    const sunday = printOf(list, 'ACS');
    if (sunday) {
      const refused = await client.post<any>(`/subscriptions/${sunday.id}/holiday-service`, {
        service: 'break',
        dateFrom: addDays(8),
        dateTo: addDays(20),
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('feature_disabled');
    }
  });

  it('shows a running redirect that can no longer be cancelled once its first issue has shipped', async () => {
    const [owner] = await db.query<{ email: string }>(
      `select u.email from holiday_services h
         join subscription_roles sr on sr.tenant_id = h.tenant_id and sr.subscription_id = h.subscription_id and sr.role = 'AG'
         join user_business_partners ubp on ubp.tenant_id = sr.tenant_id and ubp.bp_number = sr.bp_number
         join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
        where h.tenant_id = $1 and h.type = 'redirect' and h.date_from < current_date limit 1`,
      [german.id],
    );
    const client = await signIn(german, owner.email);
    const running = (await subscriptions(client)).find(
      (s) => s.activeHolidayServiceType === 'redirect' && s.roles.includes('WE'),
    )!;
    const firstShipping = (day: string) =>
      db.query(
        `update holiday_services set first_shipping = ${day}
          where tenant_id = $1 and subscription_id = $2 and type = 'redirect'`,
        [german.id, running.id],
      );
    // §4 "redirect while its first issue has not shipped": begun, but nothing sent there yet.
    await firstShipping('current_date + 3');
    const waiting = await client.get<any>(`/subscriptions/${running.id}/holiday-service`);
    expect(waiting.body.planned).toMatchObject({ type: 'redirect', isCancellable: true });
    await firstShipping('current_date - 1');
    const state = await client.get<any>(`/subscriptions/${running.id}/holiday-service`);
    expect(state.body.planned).toMatchObject({ type: 'redirect', isCancellable: false });
    expect(
      (await client.post<any>(`/subscriptions/${running.id}/holiday-service/cancel`, { service: 'redirect' }))
        .body.error.code,
    ).toBe('not_cancellable');
  });
});

describe('payment details', () => {
  it('refuses a wrong IBAN, records SEPA for the end of the period and applies it on that day', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const before = await client.get<any>(`/subscriptions/${s.id}/payment-details`);
    expect(before.body.allowedChanges).toEqual(expect.arrayContaining(['sepa', 'credit_card', 'paypal']));
    const wrong = await client.post<any>(`/subscriptions/${s.id}/payment-details/sepa`, {
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE89 3704 0044 0532 0130 01',
    });
    expect(wrong.body.error.details.fields).toEqual({ iban: 'checksum' });
    // A holder on two lines would add a line to the order system's record and the mandate.
    const twoLines = await client.post<any>(`/subscriptions/${s.id}/payment-details/sepa`, {
      debitAccountHolder: 'Jonas Becker\r\nX-Injected: 1',
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(twoLines.status).toBe(400);
    expect(JSON.stringify(twoLines.body.error.details)).toContain('/debitAccountHolder');
    const saved = await client.post<any>(`/subscriptions/${s.id}/payment-details/sepa`, {
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
    });
    expect(saved.status).toBe(200);
    // The new account as it was given, masked: the page shows what the change will debit.
    expect(saved.body.pendingChange).toEqual({
      paymentMethod: 'sepa',
      effectiveFrom: expect.any(String),
      account: { debitAccountHolder: 'Jonas Becker', iban: 'DE••••••••••••••••3000', bic: 'COBADEFFXXX' },
    });
    expect(JSON.stringify(saved.body)).not.toContain('370400440532013000');
    // The subscription says so too, beside the method on record, in the list and alone.
    const waiting = { paymentMethod: 'sepa', from: saved.body.pendingChange.effectiveFrom };
    const shown = await client.get<any>(`/subscriptions/${s.id}`);
    expect(shown.body.paymentDetails.pendingChange).toEqual(waiting);
    expect(shown.body.paymentDetails.paymentMethod).not.toBe('sepa');
    const listed = await client.get<any>('/subscriptions');
    expect(listed.body.find((x: { id: string }) => x.id === s.id).paymentDetails.pendingChange).toEqual(
      waiting,
    );
    // Whatever the record holds (the order system may send the whole account back), masked on the way out.
    await db.query(
      `update subscriptions
          set details = jsonb_set(jsonb_set(details, '{pendingPaymentMethod,account,iban}', '"DE89370400440532013000"'),
                                  '{paymentAccount}', '{"debitAccountHolder": "Jonas Becker", "iban": "DE89370400440532013000"}')
        where tenant_id = $1 and id = $2`,
      [german.id, s.id],
    );
    const read = await client.get<any>(`/subscriptions/${s.id}/payment-details`);
    expect(read.body.pendingChange.account.iban).toBe('DE••••••••••••••••3000');
    expect(JSON.stringify(read.body)).not.toContain('370400440532013000');
    // The order system gets the whole account to set up the debit, until it answered the change.
    const [event] = await db.query<{ id: string; account: Record<string, unknown> }>(
      `select id::text, data->'account' as account from account_events
        where tenant_id = $1 and type = 'payment_method.changed' and subject_id = $2 order by seq desc limit 1`,
      [german.id, s.id],
    );
    expect(event.account).toEqual({
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
    });
    await acknowledgeChange(
      { db, now: () => new Date(), mailFrom: 'portal@changes.test' },
      german,
      '00000000-0000-4000-8000-000000000000',
      event.id,
      { status: 'confirmed' },
    );
    const [answered] = await db.query<{ account: Record<string, unknown> }>(
      `select data->'account' as account from account_events where tenant_id = $1 and id = $2::uuid`,
      [german.id, event.id],
    );
    expect(answered.account).toEqual({
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE••••••••••••••••3000',
      bic: 'COBADEFFXXX',
    });
    expect(await applyDueChanges(db, saved.body.pendingChange.effectiveFrom)).toBeGreaterThan(0);
    const after = await client.get<any>(`/subscriptions/${s.id}/payment-details`);
    expect(after.body).toMatchObject({
      paymentMethod: 'sepa',
      account: { iban: 'DE••••••••••••••••3000', debitAccountHolder: 'Jonas Becker' },
      pendingChange: null,
    });
    expect((await client.get<any>(`/subscriptions/${s.id}`)).body.paymentDetails).toEqual({
      paymentMethod: 'sepa',
    });
    // An account stored before the operator API checked its shape is read as none, not as a 500.
    await db.query(
      `update subscriptions set details = jsonb_set(details, '{paymentAccount}', '"garbage"')
        where tenant_id = $1 and id = $2`,
      [german.id, s.id],
    );
    const garbled = await client.get<any>(`/subscriptions/${s.id}/payment-details`);
    expect([garbled.status, garbled.body.account]).toEqual([200, null]);
  });

  it('records a bank account given again while its change waits once, so the answer to it settles it', async () => {
    const client = await signIn(withLines);
    let s: Subscription | undefined;
    for (const candidate of await subscriptions(client)) {
      const details = await client.get<any>(`/subscriptions/${candidate.id}/payment-details`);
      if (
        details.status === 200 &&
        details.body.allowedChanges.includes('sepa') &&
        !details.body.pendingChange
      ) {
        s = candidate;
        break;
      }
    }
    expect(s).toBeDefined();
    const changes = () =>
      db.query<{ id: string }>(
        `select id::text from account_events
          where tenant_id = $1 and type = 'payment_method.changed' and subject_id = $2 order by seq`,
        [withLines.id, s!.id],
      );
    const give = (iban: string) =>
      client.post<any>(`/subscriptions/${s!.id}/payment-details/sepa`, {
        debitAccountHolder: 'Jonas Becker',
        iban,
      });
    // A double press and a request sent again: the same account, at once and afterwards.
    const pressed = await Promise.all([1, 2, 3, 4].map(() => give('DE89 3704 0044 0532 0130 00')));
    expect(pressed.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((await give('DE89370400440532013000')).body.pendingChange.account.iban).toBe(
      'DE••••••••••••••••3000',
    );
    const [first, ...more] = await changes();
    expect(more).toEqual([]);
    // And one confirmation mail.
    const told = (await outbox.mails(SHARED_DEMO_EMAIL, withLines.id)).filter(
      (m) => m.subject.startsWith('Ihre neue Zahlungsart') && m.text.includes(s!.orderNumber),
    );
    expect(told).toHaveLength(1);
    // Its rejection takes the change off: nothing else holds it.
    const answered = await acknowledgeChange(
      { db, now: () => new Date(), mailFrom: 'portal@changes.test' },
      withLines,
      '00000000-0000-4000-8000-000000000000',
      first.id,
      { status: 'rejected', reason: { 'de-DE': 'Konto unbekannt', 'en-GB': 'Unknown account' } },
    );
    expect(answered.acknowledgement).toMatchObject({ status: 'rejected', undone: true });
    expect((await client.get<any>(`/subscriptions/${s!.id}/payment-details`)).body.pendingChange).toBeNull();
    // Given again after the answer, and another account meanwhile: each a change of its own.
    await give('DE89 3704 0044 0532 0130 00');
    await give('DE02 1203 0000 0000 2020 51');
    expect(await changes()).toHaveLength(3);
  });

  it('masks an account the order system has not answered for 30 days', async () => {
    const eventId = await db.transaction((tx) =>
      recordEvent(tx, german.id, 'payment_method.changed', {
        userId: 'nobody',
        subscriptionId: 'none',
        orderNumber: '4000000000',
        from: 'invoice',
        to: 'direct_debit',
        effectiveFrom: '2026-12-01',
        account: {
          debitAccountHolder: 'Jonas Becker',
          debitAccountNumber: '532013000',
          debitBankCode: '37040044',
          debitBankName: null,
        },
      }),
    );
    const account = async () =>
      (
        await db.query<{ account: Record<string, unknown> }>(
          `select data->'account' as account from account_events where tenant_id = $1 and id = $2::uuid`,
          [german.id, eventId],
        )
      )[0].account;
    await deleteExpiredRows(db, new Date());
    expect((await account()).debitAccountNumber).toBe('532013000');
    await db.query(
      `update account_events set created_at = created_at - interval '31 days' where tenant_id = $1 and id = $2::uuid`,
      [german.id, eventId],
    );
    await deleteExpiredRows(db, new Date());
    expect(await account()).toEqual({
      debitAccountHolder: 'Jonas Becker',
      debitAccountNumber: '•••••••00',
      debitBankCode: '37040044',
      debitBankName: null,
    });
  });

  /** Opens the sandbox page a popup answer names and pays there, by default with the test card that succeeds: the answer. */
  async function submitOnSandboxPage(url: string, card: Record<string, string> = {}) {
    const page = new URL(url, baseUrl);
    const sandbox = browserLikeClient(baseUrl, '');
    await sandbox.get(`${page.pathname}${page.search}`);
    return sandbox.post<any>(page.pathname, {
      key: page.searchParams.get('key'),
      action: 'pay',
      cardNumber: '4242424242424242',
      expiry: '12/39',
      holder: 'Sam Taylor',
      ...card,
    });
  }

  /** The status the sandbox page's payment ended with. */
  const payOnSandboxPage = async (url: string, card: Record<string, string> = {}): Promise<string> =>
    (await submitOnSandboxPage(url, card)).body.status;

  it('offers only the tenant’s directions and registers a card through the sandbox page', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const refused = await client.post<any>(`/subscriptions/${s.id}/payment-details/sepa`, {
      debitAccountHolder: 'Sam Taylor',
      iban: 'GB29 NWBK 6016 1331 9268 19',
    });
    expect(refused.status).toBe(403);
    // A page asked for again replaces the one not finished: one at most is open, and only it counts.
    const first = await client.post<any>(`/subscriptions/${s.id}/payment-details/credit-card`);
    const popup = await client.post<any>(`/subscriptions/${s.id}/payment-details/credit-card`);
    expect(popup.body.url).toContain('/api/payments/sandbox/');
    expect(
      (await client.get<any>(`/subscriptions/${s.id}/pending-payments/${first.body.pendingPayment.id}`)).body
        .status,
    ).toBe('canceled');
    const [open] = await db.query<{ n: number }>(
      `select count(*)::int as n from payments where tenant_id = $1 and purpose = 'payment-method' and status = 'pending'
          and details->>'subscriptionId' = $2`,
      [british.id, s.id],
    );
    expect(open.n).toBe(1);
    // The page names each field typed wrong (sandboxPage.ts), also one no card form could read.
    const typedWrong = await submitOnSandboxPage(popup.body.url, {
      cardNumber: '4242 abcd',
      expiry: '13/20',
      holder: '',
    });
    expect(typedWrong.status).toBe(400);
    expect(typedWrong.body.error.details.fields).toEqual({
      cardNumber: 'invalid',
      expiry: 'invalid',
      holder: 'required',
    });
    // The expiry as a card's face shows it, or without its slash.
    expect(await payOnSandboxPage(popup.body.url, { expiry: '1239' })).toBe('success');
    expect(
      (await client.get<any>(`/subscriptions/${s.id}/pending-payments/${popup.body.pendingPayment.id}`)).body
        .status,
    ).toBe('success');
    expect(
      (await client.get<any>(`/subscriptions/${s.id}/payment-details`)).body.pendingChange.paymentMethod,
    ).toBe('credit_card');
  });

  it('records a registration paid only while the tenant still offers that change', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const popup = await client.post<any>(`/subscriptions/${s.id}/payment-details/credit-card`);
    expect(popup.status).toBe(200);
    // The publisher takes the direction away while the page is open.
    const offered = british.paymentMethodChange;
    british.paymentMethodChange = { ...offered, allowedChanges: {} };
    try {
      expect(await payOnSandboxPage(popup.body.url)).toBe('error');
    } finally {
      british.paymentMethodChange = offered;
    }
    const [settled] = await db.query<{ status: string }>(
      `select data->>'status' as status from account_events
        where tenant_id = $1 and type = 'payment.settled' and data->>'paymentId' = $2`,
      [british.id, popup.body.pendingPayment.id],
    );
    expect(settled.status).toBe('error');
  });
});

describe('complaint', () => {
  it('lists the latest delivered issues, gives a replacement once, and a download as a file', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const state = await client.get<any>(`/subscriptions/${s.id}/complaint`);
    expect(state.body.reasons).toEqual(['damaged', 'notdelivered', 'other']);
    expect(state.body.issues.length).toBeGreaterThan(0);
    expect(state.body.issues.length).toBeLessThanOrEqual(3);
    const [first, second] = state.body.issues;
    const options = await client.post<string[]>(
      `/subscriptions/${s.id}/delivered-issues/compensation-options`,
      { issue: first.issue },
    );
    expect(options.body).toContain('complimentary_issue');
    // Made on an English screen of the German tenant.
    const given = await client.post<any>(
      `/subscriptions/${s.id}/delivered-issues/request-compensation`,
      { issue: first.issue, complaintReason: 'damaged', compensationOption: 'complimentary_issue' },
      { 'accept-language': 'en-GB' },
    );
    expect(given.body).toMatchObject({
      url: null,
      compensationOption: 'complimentary_issue',
      expectedBy: addDays(7),
    });
    // §3: the record's address-changed flag; no address of this subscription has changed.
    const [record] = await db.query<{ address_changed: boolean }>(
      `select address_changed from complaints where tenant_id = $1 and subscription_id = $2 and issue = $3`,
      [german.id, s.id, first.issue],
    );
    expect(record.address_changed).toBe(false);
    const again = await client.post<any>(`/subscriptions/${s.id}/delivered-issues/request-compensation`, {
      issue: first.issue,
      complaintReason: 'other',
      compensationOption: 'complimentary_issue',
    });
    expect(again.body.error.code).toBe('complaint_exists');
    const delivered = await client.get<any>(`/subscriptions/${s.id}/delivered-issues?page=0`);
    expect(delivered.body.items.some((i: { issue: string }) => i.issue === `C-${first.issue}`)).toBe(true);
    if (second) {
      const download = await client.post<any>(
        `/subscriptions/${s.id}/delivered-issues/request-compensation`,
        { issue: second.issue, complaintReason: 'notdelivered', compensationOption: 'download' },
      );
      expect(download.body.url).toMatch(/\/api\/files\//);
      const file = await client.get<string>(
        new URL(download.body.url, baseUrl).pathname.replace(`/t/${german.id}/api`, ''),
      );
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toContain('application/pdf');
    }
    const refused = await client.post<any>(`/subscriptions/${s.id}/delivered-issues/compensation-options`, {
      issue: 'not-an-issue',
    });
    expect(refused.status).toBe(404);

    // The order system rejects the first complaint: its replacement is not delivered, the issue is not
    // complained about any more, and it may be complained about again.
    const [created] = await db.query<{ id: string; locale: string | null }>(
      `select id, locale from account_events where tenant_id = $1 and type = 'complaint.created'
          and data->>'subscriptionId' = $2 and data->>'issue' = $3`,
      [german.id, s.id, first.issue],
    );
    // The event keeps the language of the screen it was made on (server/events/eventLocale.ts).
    expect(created.locale).toBe('en-GB');
    const rejected = await acknowledgeChange(
      { db, now: () => new Date(), mailFrom: 'portal@changes.test' },
      german,
      '00000000-0000-4000-8000-000000000000',
      created.id,
      { status: 'rejected', reason: { 'de-DE': 'Zugestellt.', 'en-GB': 'Delivered.' } },
    );
    expect(rejected.acknowledgement.undone).toBe(true);
    // The order system named no language: the subscriber is told in the one they made the change
    // in, not in the tenant's default.
    expect(rejected.acknowledgement.locale).toBe('en-GB');
    const told = (await outbox.mails(SHARED_DEMO_EMAIL, german.id)).at(-1)!;
    expect(told.subject).toContain('Your change could not be accepted');
    expect(told.text).toContain('Delivered.');
    const after = await client.get<any>(`/subscriptions/${s.id}/complaint`);
    expect(after.body.issues.find((i: { issue: string }) => i.issue === first.issue).complained).toBe(false);
    const deliveredAfter = await client.get<any>(`/subscriptions/${s.id}/delivered-issues?page=0`);
    expect(deliveredAfter.body.items.some((i: { issue: string }) => i.issue === `C-${first.issue}`)).toBe(
      false,
    );
    const anew = await client.post<any>(`/subscriptions/${s.id}/delivered-issues/request-compensation`, {
      issue: first.issue,
      complaintReason: 'other',
      compensationOption: 'complimentary_issue',
    });
    expect(anew.status).toBe(200);
  });
});

describe('addresses', () => {
  it('lists the partners with roles, refuses a wrong UK postcode and a locked name, and saves a dated change for its day', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const partners = await client.get<any[]>(`/subscriptions/${s.id}/business-partners`);
    const me = partners.body.find((p) => p.roles.includes('WE'))!;
    expect(me).toMatchObject({ editable: true, roles: ['AG', 'WE', 'RE'] });
    expect((await client.get<string[]>(`/subscriptions/${s.id}/supported-countries?role=WE`)).body).toEqual([
      'GB',
      'IE',
    ]);
    const wrong = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      zipcode: '12345',
      countryCode: 'GB',
    });
    expect(wrong.body.error.details.fields).toMatchObject({ zipcode: 'invalid' });
    const locked = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      lastName1: 'Someone Else',
    });
    expect(locked.body.error.details.fields).toMatchObject({ lastName1: 'not_editable' });
    // Address lines only with the address-lines feature (§5), which this tenant has not: the form
    // shows none, so one sent anyway could never be taken off again.
    const lines = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      addressLine1: 'c/o X',
      addressLine2: 'Second line',
    });
    expect(lines.status).toBe(400);
    expect(lines.body.error.details.fields).toMatchObject({
      addressLine1: 'not_editable',
      addressLine2: 'not_editable',
    });
    const dated = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      street: 'Rosebery Avenue',
      streetNumber: '14',
      // Typed in small letters without its space: kept as a UK postcode is written.
      zipcode: 'ec1r4td',
      city: 'London',
      validFrom: addDays(12),
    });
    expect(dated.status).toBe(200);
    expect(dated.body.address.street).toBe(me.address.street);
    expect(dated.body.futureAddresses).toEqual([
      {
        validFrom: addDays(12),
        address: expect.objectContaining({ street: 'Rosebery Avenue', zipcode: 'EC1R 4TD' }),
      },
    ]);
    // The confirmation writes the address as the screens do, with the country's name.
    const confirmation = (await outbox.mails(SHARED_DEMO_EMAIL, british.id)).at(-1)!;
    expect(confirmation.text).toContain('14 Rosebery Avenue\nLondon\nEC1R 4TD\nUnited Kingdom');
    await applyDueChanges(db, addDays(12));
    const moved = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    )!;
    expect(moved.address).toMatchObject({
      street: 'Rosebery Avenue',
      streetNumber: '14',
      zipcode: 'EC1R 4TD',
      city: 'London',
    });
    const events = await db.query<{ type: string }>(
      `select type from account_events where tenant_id = $1 and subject_id = $2`,
      [british.id, me.bpNumber],
    );
    expect(events.map((e) => e.type)).toContain('address.changed');
  });

  it('moves to the whole dated address: a change of today’s meanwhile is not carried into it', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    const change = (fields: Record<string, string>) =>
      client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
        ...me.address,
        ...fields,
      });
    expect(
      (await change({ street: 'Lindenstraße', streetNumber: '24', validFrom: addDays(20) })).status,
    ).toBe(200);
    // Today's address gets a suffix ("Hinterhaus"); the move in twenty days has none.
    const meanwhile = await change({ streetNumberSuffix: 'Hinterhaus' });
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.body.address.streetNumberSuffix).toBe('Hinterhaus');
    const move = meanwhile.body.futureAddresses.find((f: any) => f.validFrom === addDays(20));
    expect(move.address).toMatchObject({
      street: 'Lindenstraße',
      streetNumber: '24',
      streetNumberSuffix: null,
    });
    await applyDueChanges(db, addDays(20));
    const moved = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    )!;
    expect(moved.address).toMatchObject({
      street: 'Lindenstraße',
      streetNumber: '24',
      streetNumberSuffix: null,
    });
  });

  it("keeps the partner's job title and department (§5 address form) and answers them", async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    expect(me).toMatchObject({ jobTitle: null, department: null });
    const tooLong = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      jobTitle: 'x'.repeat(36),
    });
    expect(tooLong.status).toBe(400);
    const saved = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      jobTitle: 'Redakteurin',
      department: 'Lokales',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ jobTitle: 'Redakteurin', department: 'Lokales' });
    const again = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    )!;
    expect(again).toMatchObject({ jobTitle: 'Redakteurin', department: 'Lokales', company2: null });
  });

  it('refuses a change made on details another window or the order system changed since, and writes nothing', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const url = `/subscriptions/${s.id}/business-partners`;
    const me = (await client.get<any[]>(url)).body.find((p) => p.roles.includes('WE'))!;
    expect(me.addressVersion).toMatch(/^[0-9a-f]{16}$/);
    // Two windows opened on the same details: the first saves a new street number…
    const first = await client.post<any>(`${url}/${me.bpNumber}`, {
      ...me.address,
      streetNumber: '9',
      basedOn: me.addressVersion,
    });
    expect(first.status).toBe(200);
    expect(first.body.addressVersion).not.toBe(me.addressVersion);
    // …the second, still showing the old number, a new city: refused, not written over the first.
    const events = async () =>
      (
        await db.query<{ n: number }>(`select count(*)::int as n from account_events where tenant_id = $1`, [
          german.id,
        ])
      )[0].n;
    const before = await events();
    const second = await client.post<any>(`${url}/${me.bpNumber}`, {
      ...me.address,
      city: 'Markkleeberg',
      basedOn: me.addressVersion,
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('address_changed_meanwhile');
    expect(await events()).toBe(before);
    const now = (await client.get<any[]>(url)).body.find((p) => p.bpNumber === me.bpNumber)!;
    expect(now.address).toMatchObject({ streetNumber: '9', city: me.address.city });
    expect(now.addressVersion).toBe(first.body.addressVersion);
    // On the details as they are now, the same change goes through and keeps the first.
    const again = await client.post<any>(`${url}/${me.bpNumber}`, {
      ...now.address,
      city: 'Markkleeberg',
      basedOn: now.addressVersion,
    });
    expect(again.status).toBe(200);
    expect(again.body.address).toMatchObject({ streetNumber: '9', city: 'Markkleeberg' });
    // The order system's write meanwhile counts as a change too.
    await db.query(
      `update business_partners set phone_number = '0341 123' where tenant_id = $1 and bp_number = $2`,
      [german.id, me.bpNumber],
    );
    const stale = await client.post<any>(`${url}/${me.bpNumber}`, {
      ...again.body.address,
      street: 'Lindenstraße',
      basedOn: again.body.addressVersion,
    });
    expect(stale.status).toBe(409);
  });

  it('judges a change on the details as a write that held the partner before it left them', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const url = `/subscriptions/${s.id}/business-partners`;
    const me = (await client.get<any[]>(url)).body.find((p) => p.roles.includes('WE'))!;
    // Another writer (the order system's import, say) holds the partner and changes the street.
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const writer = db.transaction(async (tx) => {
      await tx.query(`select 1 from business_partners where tenant_id = $1 and bp_number = $2 for update`, [
        german.id,
        me.bpNumber,
      ]);
      await tx.query(
        `update business_partners set street = 'Ringstraße' where tenant_id = $1 and bp_number = $2`,
        [german.id, me.bpNumber],
      );
      held();
      await committed;
    });
    await holding;
    const change = client.post<any>(`${url}/${me.bpNumber}`, {
      ...me.address,
      city: 'Borna',
      basedOn: me.addressVersion,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await writer;
    const answer = await change;
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    const now = (await client.get<any[]>(url)).body.find((p) => p.bpNumber === me.bpNumber)!;
    expect(now.address).toMatchObject({ street: 'Ringstraße', city: me.address.city });
  });

  it('tries a dated change again next round when its write lost a race (a deadlock), rather than setting it aside', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const url = `/subscriptions/${s.id}/business-partners`;
    const me = (await client.get<any[]>(url)).body.find((p) => p.roles.includes('WE'))!;
    const day = addDays(30);
    const dated = await client.post<any>(`${url}/${me.bpNumber}`, {
      ...me.address,
      city: 'Grimma',
      validFrom: day,
      basedOn: me.addressVersion,
    });
    expect(dated.status, JSON.stringify(dated.body)).toBe(200);
    // The partner's write fails as a deadlock would (a subscriber's change held the partner).
    const trigger = (sqlstate: string) =>
      db.query(`create or replace function due_change_race() returns trigger language plpgsql as $$
        begin if new.bp_number = '${me.bpNumber}' then raise exception 'race' using errcode = '${sqlstate}'; end if; return new; end $$;
        create trigger due_change_race before update on business_partners for each row execute function due_change_race();`);
    const drop = () =>
      db.query(`drop trigger due_change_race on business_partners; drop function due_change_race();`);
    const pending = () =>
      db.query<{ lastError: string | null; appliedAt: string | null }>(
        `select last_error as "lastError", applied_at as "appliedAt" from future_addresses
          where tenant_id = $1 and bp_number = $2 and valid_from = $3`,
        [german.id, me.bpNumber, day],
      );
    await trigger('40P01');
    try {
      await applyDueChanges(db, day);
    } finally {
      await drop();
    }
    expect(await pending()).toEqual([{ lastError: null, appliedAt: null }]);
    await applyDueChanges(db, day);
    expect((await pending())[0].appliedAt).not.toBeNull();
    const moved = (await client.get<any[]>(url)).body.find((p) => p.bpNumber === me.bpNumber)!;
    expect(moved.address.city).toBe('Grimma');
  });

  it('judges the values a change alters, not those the order system sent (a stored e-mail address longer than the form allows)', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    const onRecord = 'subscriptions.department@harbourside.example';
    expect(onRecord.length).toBeGreaterThan(35);
    await db.query(
      `update business_partners set email_address = $3 where tenant_id = $1 and bp_number = $2`,
      [german.id, me.bpNumber, onRecord],
    );
    const url = `/subscriptions/${s.id}/business-partners/${me.bpNumber}`;
    const moved = await client.post<any>(url, { ...me.address, emailAddress: onRecord, city: 'Leeds' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ emailAddress: onRecord, address: { city: 'Leeds' } });
    // What the subscriber types is judged as before.
    const typed = await client.post<any>(url, { city: 'x'.repeat(36) });
    expect(typed.body.error.details.fields).toEqual({ city: 'too_long' });
    // Each text on one line: a line break would add a line to the mails and the order system's address.
    const lines = await client.post<any>(url, { city: 'Leeds\nWest Yorkshire', street: 'High\tStreet' });
    expect(lines.body.error.details.fields).toEqual({ city: 'one_line', street: 'one_line' });
    // A request without a body changes nothing and is no server error; one with a body in another
    // media type is refused for it (415), and changes nothing either.
    const empty = await client.post<any>(url, '', { 'content-type': 'application/octet-stream' });
    expect(empty.status).toBe(200);
    expect(empty.body.address.city).toBe('Leeds');
    const text = await client.post<any>(url, 'city=York', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const after = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(after.find((p) => p.bpNumber === me.bpNumber).address.city).toBe('Leeds');
  });

  it('answers the goods recipient with the address lines a change wrote, for the subscription page', async () => {
    const client = await signIn(withLines);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    // The street given as well: a line beside the street the order system sent.
    const saved = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      addressLine1: 'Hinterhaus, 2. OG',
      streetNumberSuffix: 'a',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const shown = (await subscriptions(client)).find((x) => x.id === s.id)!;
    expect(shown.goodsRecipient).toMatchObject({
      bpNumber: me.bpNumber,
      addressLine1: 'Hinterhaus, 2. OG',
      streetNumberSuffix: 'a',
      street: me.address.street,
    });
  });

  it('tells the order system, for a move at once, the street it kept as well as the town it changed', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    const saved = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      zipcode: '01067',
      city: 'Dresden',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [event] = await db.query<{ fields: string[]; values: Record<string, string | null> }>(
      `select data->'fields' as fields, data->'values' as values from account_events
        where tenant_id = $1 and type = 'address.changed' order by seq desc limit 1`,
      [german.id],
    );
    expect(event.fields).toEqual(expect.arrayContaining(['zipcode', 'city']));
    expect(event.fields).not.toContain('street');
    // The portal shows the street as this change's (a rejected earlier change of the street does
    // not leave the order system's street under the new town): so the order system is told it.
    expect(event.values).toMatchObject({
      street: me.address.street,
      streetNumber: me.address.streetNumber,
      zipcode: '01067',
      city: 'Dresden',
    });
  });

  it('moves by address lines without leaving the old street beside them, and tells the order system every field it wrote', async () => {
    const client = await signIn(withLines);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    expect(me.address.street).toBeTruthy();
    const lastValues = async () =>
      (
        await db.query<{ values: Record<string, string | null> }>(
          `select data->'values' as values from account_events
            where tenant_id = $1 and type = 'address.changed' order by seq desc limit 1`,
          [withLines.id],
        )
      )[0].values;
    const path = `/subscriptions/${s.id}/business-partners/${me.bpNumber}`;
    // §5 with address lines: the lines are the address; a client that sends them alone moves.
    const mailed = new Set((await outbox.mails(SHARED_DEMO_EMAIL, withLines.id)).map((m) => m.file));
    const moved = await client.post<any>(path, {
      addressLine1: 'Neue Straße 7',
      addressLine2: null,
      addressLine3: null,
      zipcode: '10115',
      city: 'Hamburg',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.address).toMatchObject({
      addressLine1: 'Neue Straße 7',
      street: null,
      streetNumber: null,
      streetNumberSuffix: null,
      city: 'Hamburg',
    });
    // Every field of where the partner lives that the change wrote, the street it took away too.
    expect(await lastValues()).toMatchObject({
      addressLine1: 'Neue Straße 7',
      street: null,
      streetNumber: null,
      streetNumberSuffix: null,
      zipcode: '10115',
      city: 'Hamburg',
    });
    const [mail] = (await outbox.mails(SHARED_DEMO_EMAIL, withLines.id)).filter((m) => !mailed.has(m.file));
    expect(mail.text).toContain('Neue Straße 7');
    expect(mail.text).not.toContain(me.address.street);
    // A dated move by lines holds no street either.
    const dated = await client.post<any>(path, {
      addressLine1: 'Zukunftsweg 3',
      zipcode: '50667',
      city: 'Köln',
      validFrom: addDays(10),
    });
    expect(dated.status, JSON.stringify(dated.body)).toBe(200);
    expect(dated.body.futureAddresses.find((f: any) => f.validFrom === addDays(10)).address).toMatchObject({
      addressLine1: 'Zukunftsweg 3',
      street: null,
      city: 'Köln',
    });
    expect(await lastValues()).toMatchObject({ addressLine1: 'Zukunftsweg 3', street: null, city: 'Köln' });
  });

  it("flags a complaint whose goods recipient's postal address changed in the four weeks up to the issue's sale (§3)", async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const [first, second] = (await client.get<any>(`/subscriptions/${s.id}/complaint`)).body.issues;
    expect(second).toBeDefined();
    const complain = async (issue: string) => {
      const given = await client.post<any>(`/subscriptions/${s.id}/delivered-issues/request-compensation`, {
        issue,
        complaintReason: 'notdelivered',
        compensationOption: 'download',
      });
      expect(given.status).toBe(200);
      const [record] = await db.query<{ address_changed: boolean }>(
        `select address_changed from complaints where tenant_id = $1 and subscription_id = $2 and issue = $3`,
        [british.id, s.id, issue],
      );
      const [event] = await db.query<{ data: { addressChanged: boolean } }>(
        `select data from account_events where tenant_id = $1 and type = 'complaint.created' and subject_id = $2 order by seq desc limit 1`,
        [british.id, s.id],
      );
      expect(event.data.addressChanged).toBe(record.address_changed);
      return record.address_changed;
    };
    const [{ day: sale }] = await db.query<{ day: string }>(
      `select to_char(date_of_first_sale, 'YYYY-MM-DD') as day from issues where tenant_id = $1 and publication = $2 and issue = $3`,
      [british.id, s.publication, second.issue],
    );
    const daysBefore = (n: number) =>
      new Date(Date.parse(`${sale}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    const window = { from: daysBefore(28), to: sale };
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find((p) =>
      p.roles.includes('WE'),
    )!;
    // The first test of this block moved this partner from a day after the issues: no count.
    expect(await complain(first.issue)).toBe(false);
    // A job title changed three days before the sale moves no copy: no count either.
    expect(
      (
        await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
          ...me.address,
          jobTitle: 'Editor',
        })
      ).status,
    ).toBe(200);
    await db.query(
      `update account_events set created_at = $3::date where tenant_id = $1 and type = 'address.changed' and subject_id = $2`,
      [british.id, me.bpNumber, daysBefore(3)],
    );
    expect(await goodsRecipientAddressChanged(db, british.id, s.id, window)).toBe(false);
    // The street change, as if it had taken effect three days before the sale: it counts.
    const moved = await db.query(
      `update account_events set data = jsonb_set(data, '{validFrom}', to_jsonb($3::text))
        where tenant_id = $1 and type = 'address.changed' and subject_id = $2 and data->'fields' ? 'street' returning 1`,
      [british.id, me.bpNumber, daysBefore(3)],
    );
    expect(moved.length).toBeGreaterThan(0);
    expect(await goodsRecipientAddressChanged(db, british.id, s.id, window)).toBe(true);
    expect(await complain(second.issue)).toBe(true);
  });
});

describe('what the security review found', () => {
  it('refuses a day that does not exist and a year out of range without a 5xx', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body[0];
    const feb30 = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      dateOfBirth: '1980-02-30',
      validFrom: addDays(3),
    });
    expect(feb30.status).toBe(400);
    const yearZero = await client.get<any>(
      `/subscriptions/${s.id}/holiday-service/issues?dateFrom=0000-01-01&dateTo=0000-02-01`,
    );
    expect(yearZero.status).toBe(400);
  });

  it('sets a partner e-mail address only to the account’s own, and tells the address on record of a change', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const me = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body[0];
    const other = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      emailAddress: 'someone.else@example.org',
    });
    expect(other.body.error.details.fields).toMatchObject({ emailAddress: 'not_verified' });
    // Too long is said first (§5 "e-mail max 35"): a shorter address would still need its proof.
    const long = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      emailAddress: `${'a'.repeat(24)}@example.org`,
    });
    expect(long.body.error.details.fields).toMatchObject({ emailAddress: 'too_long' });
    const own = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      emailAddress: SHARED_DEMO_EMAIL,
    });
    expect(own.status).toBe(200);
  });

  it('applies the other due changes when one of them cannot be applied', async () => {
    const [bp] = await db.query<{ bp: string }>(
      `select bp_number::text as bp from business_partners where tenant_id = $1 order by bp_number limit 2`,
      [german.id],
    );
    const [second] = await db.query<{ bp: string }>(
      `select bp_number::text as bp from business_partners where tenant_id = $1 order by bp_number offset 1 limit 1`,
      [german.id],
    );
    await db.query(
      `insert into future_addresses (tenant_id, bp_number, valid_from, address) values ($1, $2, $3, $4), ($1, $5, $3, $6)`,
      [
        german.id,
        bp.bp,
        addDays(40),
        JSON.stringify({ dateOfBirth: 'not a date' }),
        second.bp,
        JSON.stringify({ city: 'Neustadt' }),
      ],
    );
    expect(await applyDueChanges(db, addDays(40))).toBeGreaterThanOrEqual(1);
    const [moved] = await db.query<{ city: string }>(
      `select city from business_partners where tenant_id = $1 and bp_number = $2`,
      [german.id, second.bp],
    );
    expect(moved.city).toBe('Neustadt');
    const [failed] = await db.query<{ lastError: string | null }>(
      `select last_error as "lastError" from future_addresses where tenant_id = $1 and bp_number = $2 and valid_from = $3`,
      [german.id, bp.bp, addDays(40)],
    );
    expect(failed.lastError).toMatch(/invalid input syntax for type date/);
  });
});

describe('opt-ins', () => {
  it('sends one link for a switch-on asked again while its link is new, and a new one later', async () => {
    const client = await signIn(withLines);
    const s = printOf(await subscriptions(client));
    const bp = s.currentRoleBusinessPartner.bpNumber;
    const switchOn = () =>
      client.post<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`, {
        optIns: [{ type: 'PARTNER', value: true }],
      });
    const asked = () =>
      db.query<{ changes: unknown }>(
        `select data->'changes' as changes from account_events
          where tenant_id = $1 and type = 'opt_ins.changed' and data->>'bpNumber' = $2 order by seq`,
        [withLines.id, bp],
      );
    const confirmations = async () =>
      (await outbox.mails(undefined, withLines.id)).filter((m) =>
        m.subject.startsWith('Bitte bestätigen Sie Ihre Einwilligung'),
      ).length;
    const before = (await asked()).length;
    const mailedBefore = await confirmations();
    // A double press and a request sent again: one change for the order system, one mail.
    const pressed = await Promise.all([1, 2, 3, 4].map(() => switchOn()));
    expect(pressed.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const again = await switchOn();
    expect(again.body.find((o) => o.type === 'PARTNER')).toMatchObject({ value: false, pending: true });
    expect((await asked()).slice(before).map((event) => event.changes)).toEqual([
      [{ type: 'PARTNER', value: false, pending: true }],
    ]);
    expect(await confirmations()).toBe(mailedBefore + 1);
    // Past the resend time a subscriber whose mail went astray gets a new link.
    await db.query(
      `update opt_ins set confirm_expires_at = confirm_expires_at - interval '11 minutes'
        where tenant_id = $1 and bp_number = $2 and type = 'PARTNER'`,
      [withLines.id, bp],
    );
    await switchOn();
    expect(await asked()).toHaveLength(before + 2);
  });

  it('switches off at once and on only when the e-mailed link is confirmed, once', async () => {
    const client = await signIn(german);
    const s = printOf(await subscriptions(client));
    const bp = s.currentRoleBusinessPartner.bpNumber;
    const list = await client.get<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`);
    expect(list.body.map((o) => o.type)).toEqual(['NEWSLETTER', 'PARTNER', 'PHONE', 'POST']);
    const changed = await client.post<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`, {
      optIns: [
        { type: 'NEWSLETTER', value: true },
        { type: 'PHONE', value: false },
      ],
    });
    expect(changed.body.find((o) => o.type === 'NEWSLETTER')).toMatchObject({ value: false, pending: true });
    expect(changed.body.find((o) => o.type === 'PHONE')).toMatchObject({ value: false, pending: false });
    const mail = (await outbox.mails(SHARED_DEMO_EMAIL, german.id)).find((m) =>
      m.subject.startsWith('Bitte bestätigen Sie Ihre Einwilligung'),
    )!;
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    // The portal's own page (engine/features/opt-ins/OptInConfirmScreen.tsx), in the mail's language.
    expect(link.pathname).toBe(`/t/${german.id}/opt-ins/confirm`);
    expect(link.searchParams.get('lang')).toBe('de');
    const token = link.searchParams.get('token')!;
    const visitor = browserLikeClient(baseUrl, `/t/${german.id}/api`);
    const state = (query: string) => visitor.get<any>(`/opt-ins/confirm/state?${query}`);
    // The page names what the link confirms, in its language.
    expect((await state(`token=${encodeURIComponent(token)}`)).body).toEqual({
      open: true,
      optIns: [changed.body.find((o) => o.type === 'NEWSLETTER').description],
    });
    // Opening the page confirms nothing (mail scanners open links); the button does.
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`)).body.find(
        (o) => o.type === 'NEWSLETTER',
      ).value,
    ).toBe(false);
    // A link of a mail sent before the page was the portal's opens that page, token and language kept.
    const oldLink = await fetch(
      `${baseUrl}/t/${german.id}/api/opt-ins/confirm?token=${encodeURIComponent(token)}&lang=de-DE`,
      { redirect: 'manual' },
    );
    expect(oldLink.status).toBe(303);
    expect(oldLink.headers.get('location')).toBe(
      `/t/${german.id}/opt-ins/confirm?token=${encodeURIComponent(token)}&lang=de-DE`,
    );
    const confirmed = await visitor.post<any>('/opt-ins/confirm', { token });
    expect(confirmed.body).toEqual({ status: 'confirmed', types: ['NEWSLETTER'] });
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`)).body.find(
        (o) => o.type === 'NEWSLETTER',
      ),
    ).toMatchObject({ value: true, pending: false });
    expect((await visitor.post<any>('/opt-ins/confirm', { token })).status).toBe(404);
    // The confirmation is the asking subscriber's: a rejection of it reaches their orders page and mailbox.
    const [me] = await db.query<{ id: string }>(`select id from users where tenant_id = $1 and email = $2`, [
      german.id,
      SHARED_DEMO_EMAIL,
    ]);
    const [confirmation] = await db.query<{ user_id: string | null }>(
      `select user_id from account_events where tenant_id = $1 and type = 'opt_in.confirmed' order by seq desc limit 1`,
      [german.id],
    );
    expect(confirmation.user_id).toBe(me.id);
    // Opened again, or with a made-up token or none, the page learns the link confirms nothing.
    for (const query of [`token=${encodeURIComponent(token)}`, `token=${'T'.repeat(43)}`, ''])
      expect((await state(query)).body).toEqual({ open: false, optIns: [] });
    const unknown = await client.post<any>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`, {
      optIns: [{ type: 'SMOKE_SIGNALS', value: true }],
    });
    expect(unknown.status).toBe(400);
    // Two answers for one type leave nothing to go by: refused, nothing changed.
    const before = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`)).body;
    const twice = await client.post<any>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`, {
      optIns: [
        { type: before[0].type, value: false },
        { type: before[0].type, value: true },
      ],
    });
    expect([twice.status, twice.body.error.details]).toEqual([400, { fields: { optIns: 'duplicate' } }]);
    expect((await client.get<any[]>(`/subscriptions/${s.id}/business-partners/${bp}/opt-ins`)).body).toEqual(
      before,
    );
  });

  it('offers the tenant’s opt-in types nobody has recorded yet, off, and records one when switched on', async () => {
    const client = await signIn(british);
    const s = printOf(await subscriptions(client));
    const bp = s.currentRoleBusinessPartner.bpNumber;
    // A publisher's subscriber whose order system recorded no consent at all.
    await db.query(`delete from opt_ins where tenant_id = $1 and bp_number = $2`, [british.id, bp]);
    const path = `/subscriptions/${s.id}/business-partners/${bp}/opt-ins`;
    expect((await client.get<any[]>(path)).body).toEqual([
      { type: 'EVENTS', description: 'Events', value: false, pending: false },
    ]);
    const changed = await client.post<any[]>(path, { optIns: [{ type: 'EVENTS', value: true }] });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual([{ type: 'EVENTS', description: 'Events', value: false, pending: true }]);
    expect((await client.get<any[]>(path)).body[0]).toMatchObject({ type: 'EVENTS', pending: true });
  });
});
