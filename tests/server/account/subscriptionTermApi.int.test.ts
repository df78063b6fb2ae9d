/**
 * The subscription's term against the seeded demo data: a suspension's issues lie inside its
 * dates, and no date or issue after a subscription's end is offered by the holiday service, the
 * address change, the issue calendar, the payment method change or the subscription's next issue;
 * a request for a day after the end is refused with 400 and the field code after_term_end
 * (engine/domain/subscriptionTerm.ts, engine/domain/holidayService.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
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
  'address-change',
  'issue-calendar',
  'cancellation',
];
// The second print title is a monthly one on sale on the 5th, like the title of the finding.
const PUBLICATIONS = [
  { publication: 'TEP', description: 'Term Post', kind: 'print', frequency: 'weekly' },
  { publication: 'TEM', description: 'Term Monthly', kind: 'print', frequency: 'monthly' },
  { publication: 'TED', description: 'Term Digital', kind: 'digital', frequency: 'daily' },
];

const portal = makeServerTenant({
  id: uniqueTenantId('term'),
  name: 'Verlag Term',
  hosts: ['term.test'],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: FEATURES,
  publications: PUBLICATIONS,
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  addressChange: { timedChanges: true },
  holidayService: { defaultMaxDuration: 8 },
});

const outbox = createTestOutbox('portal-term-outbox-');
const clock = new Date();
const today = clock.toISOString().slice(0, 10);
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const tomorrow = plusDays(today, 1);
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
type Client = ReturnType<typeof browserLikeClient>;

async function signIn(email = SHARED_DEMO_EMAIL): Promise<Client> {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: portal.id, email })).client;
}

async function subscription(client: Client, id: string): Promise<Subscription> {
  const list = await client.get<Subscription[]>('/subscriptions');
  expect(list.status).toBe(200);
  return list.body.find((s) => s.id === id)!;
}

/** The issues of a title on sale from `from` to `to`, earliest first, as the issue calendar has them. */
async function issuesOnSale(
  publication: string,
  from: string,
  to: string,
): Promise<Array<{ issueNumber: string; dateOfFirstSale: string }>> {
  return db.query(
    `select issue_number as "issueNumber", to_char(date_of_first_sale, 'YYYY-MM-DD') as "dateOfFirstSale"
       from issues where tenant_id = $1 and publication = $2 and date_of_first_sale between $3::date and $4::date
      order by date_of_first_sale`,
    [portal.id, publication, from, to],
  );
}

/** The account that holds a seeded holiday service of this type (its ordering party). */
async function ownerOf(type: 'break' | 'download'): Promise<{ email: string; subscriptionId: string }> {
  const [row] = await db.query<{ email: string; subscriptionId: string }>(
    `select u.email, h.subscription_id as "subscriptionId" from holiday_services h
       join subscription_roles sr on sr.tenant_id = h.tenant_id and sr.subscription_id = h.subscription_id and sr.role = 'AG'
       join user_business_partners ubp on ubp.tenant_id = sr.tenant_id and ubp.bp_number = sr.bp_number
       join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
      where h.tenant_id = $1 and h.type = $2 limit 1`,
    [portal.id, type],
  );
  return row;
}

/** Ends a subscription on a day as the order system reports it (validTo, status AK). */
async function endOn(id: string, day: string) {
  await db.query(
    `update subscriptions set order_status = 'AK', valid_to = $3::date, details = details || '{"isCancelable": false}' where tenant_id = $1 and id = $2`,
    [portal.id, id, day],
  );
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [portal], { today: clock });
  const { app } = createApp({
    db,
    tenants: [portal],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('a suspension’s issues lie inside its dates', () => {
  it('the seeded pause of a monthly title names only the issues on sale inside it (not the first one after it)', async () => {
    const { email, subscriptionId } = await ownerOf('break');
    const client = await signIn(email);
    const state = await client.get<any>(`/subscriptions/${subscriptionId}/holiday-service`);
    expect(state.status).toBe(200);
    const planned = state.body.planned;
    expect(planned).toMatchObject({
      type: 'break',
      dateFrom: plusDays(today, -9),
      dateTo: plusDays(today, 21),
    });
    const inside = await issuesOnSale('TEM', planned.dateFrom, planned.dateTo);
    expect(inside.length).toBeGreaterThan(0);
    expect(planned.suspendedFromIssueNr).toBe(inside[0].issueNumber);
    expect(planned.suspendedToIssueNr).toBe(inside.at(-1)!.issueNumber);
    expect({ from: planned.fromIssueNumber, to: planned.toIssueNumber }).toEqual({
      from: planned.suspendedFromIssueNr,
      to: planned.suspendedToIssueNr,
    });
  });

  it('the seeded switch to digital names only the issues inside its dates', async () => {
    const { email, subscriptionId } = await ownerOf('download');
    const client = await signIn(email);
    const planned = (await client.get<any>(`/subscriptions/${subscriptionId}/holiday-service`)).body.planned;
    expect(planned.type).toBe('download');
    const inside = await issuesOnSale('TEM', planned.dateFrom, planned.dateTo);
    expect(planned.futureMixTypeFromIssueNr).toBe(inside[0]?.issueNumber ?? null);
    expect(planned.futureMixTypeToIssueNr).toBe(inside.at(-1)?.issueNumber ?? null);
  });

  it('a pause booked through the API names the first and last issue inside its dates', async () => {
    const client = await signIn();
    const s = (await client.get<Subscription[]>('/subscriptions')).body.find(
      (x) =>
        x.publication === 'TEM' &&
        x.roles.includes('AG') &&
        x.orderStatus === 'A' &&
        x.activeHolidayServiceType === null,
    )!;
    const dateFrom = plusDays(today, 3);
    const dateTo = plusDays(today, 45);
    const booked = await client.post<Subscription>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom,
      dateTo,
    });
    expect(booked.status).toBe(200);
    const planned = (await client.get<any>(`/subscriptions/${s.id}/holiday-service`)).body.planned;
    const inside = await issuesOnSale('TEM', dateFrom, dateTo);
    expect(planned).toMatchObject({
      suspendedFromIssueNr: inside[0].issueNumber,
      suspendedToIssueNr: inside.at(-1)!.issueNumber,
    });
    // The issue calendar lists the issues the pause leaves out as paused, and only those.
    const pausedIn = async () =>
      (
        await client.get<any[]>(
          `/subscriptions/${s.id}/upcoming-issues?dateFrom=${today}&dateTo=${plusDays(today, 90)}&dateType=1`,
        )
      ).body
        .filter((issue) => issue.paused)
        .map((issue) => issue.issueNumber);
    expect(await pausedIn()).toEqual(inside.map((issue) => issue.issueNumber));
    await client.post(`/subscriptions/${s.id}/holiday-service/cancel`, { service: 'break' });
    expect(await pausedIn()).toEqual([]);
  });
});

describe('no date or issue after the subscription’s end is offered', () => {
  it('after a cancellation: the holiday service, the issue calendar and a dated address change stop at the last issue', async () => {
    const client = await signIn();
    const s = (await client.get<Subscription[]>('/subscriptions')).body.find(
      (x) => x.publication === 'TEP' && x.mixType === 'PR' && x.isCancelable && x.roles.includes('AG'),
    )!;
    // Cancel through the flow when it offers dates (the issue after next), else end it as the order system would.
    const reasons = await client.get<Array<{ cancelReason: string }>>(
      `/subscriptions/${s.id}/cancellation-reasons`,
    );
    const infos = reasons.body[0]
      ? await client.get<any>(
          `/subscriptions/${s.id}/cancellation-infos?cancellationReason=${reasons.body[0].cancelReason}`,
        )
      : null;
    const issue = infos?.body.cancellable ? (infos.body.issues[2] ?? infos.body.issues[0]) : null;
    const cancelled = issue
      ? await client.post<any>(`/subscriptions/${s.id}/cancel`, {
          reason: reasons.body[0].cancelReason,
          issue,
        })
      : null;
    if (cancelled?.status !== 200)
      await endOn(
        s.id,
        (await issuesOnSale('TEP', plusDays(today, 20), plusDays(today, 40)))[0].dateOfFirstSale,
      );
    const end = (await subscription(client, s.id)).validToOnSaleDate!;
    expect(end > tomorrow).toBe(true);
    const after = plusDays(end, 1);

    // Holiday service: the issues up to the end, the last one included; a range past it is refused.
    const upToEnd = await client.get<any[]>(
      `/subscriptions/${s.id}/holiday-service/issues?dateFrom=${tomorrow}&dateTo=${end}`,
    );
    expect(upToEnd.status).toBe(200);
    expect(upToEnd.body.at(-1).dateOfFirstSale).toBe(end);
    const pastEnd = await client.get<any>(
      `/subscriptions/${s.id}/holiday-service/issues?dateFrom=${tomorrow}&dateTo=${plusDays(end, 14)}`,
    );
    expect(pastEnd.status).toBe(400);
    expect(pastEnd.body.error).toMatchObject({
      code: 'validation_failed',
      details: { fields: { dateTo: 'after_term_end' } },
    });
    expect(pastEnd.body.error.message).toContain(end);
    const refused = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: tomorrow,
      dateTo: after,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual({ dateTo: 'after_term_end' });
    const startsAfter = await client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: after,
      dateTo: plusDays(after, 7),
    });
    expect(startsAfter.body.error.details.fields).toEqual({
      dateFrom: 'after_term_end',
      dateTo: 'after_term_end',
    });
    const booked = await client.post<Subscription>(`/subscriptions/${s.id}/holiday-service`, {
      service: 'break',
      dateFrom: tomorrow,
      dateTo: end,
    });
    expect(booked.status).toBe(200);
    const planned = (await client.get<any>(`/subscriptions/${s.id}/holiday-service`)).body.planned;
    expect(planned.suspendedToIssueNr).toBe(upToEnd.body.at(-1).issueNumber);
    await client.post(`/subscriptions/${s.id}/holiday-service/cancel`, { service: 'break' });

    // Issue calendar: a window reaching past the end stops at it; one beginning after it is refused.
    const calendar = await client.get<any[]>(
      `/subscriptions/${s.id}/upcoming-issues?dateFrom=${today}&dateTo=${plusDays(today, 120)}&dateType=1`,
    );
    expect(calendar.status).toBe(200);
    expect(calendar.body.length).toBeGreaterThan(0);
    expect(calendar.body.every((i) => i.dateOfFirstSale <= end)).toBe(true);
    expect(calendar.body.at(-1).dateOfFirstSale).toBe(end);
    const later = await client.get<any>(
      `/subscriptions/${s.id}/issues?dateFrom=${after}&dateTo=${plusDays(after, 30)}&dateType=1`,
    );
    expect(later.status).toBe(400);
    expect(later.body.error.message).toContain(end);

    // The next issue is one of the term.
    const read = await subscription(client, s.id);
    expect(read.nextIssue && read.nextIssue.dateOfFirstSale! <= end).toBe(true);

    // A dated address change: on the last day, not after it.
    const partner = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.roles.includes('WE') && p.editable,
    )!;
    const tooLate = await client.post<any>(`/subscriptions/${s.id}/business-partners/${partner.bpNumber}`, {
      ...partner.address,
      street: 'Neue Straße',
      validFrom: after,
    });
    expect(tooLate.status).toBe(400);
    expect(tooLate.body.error.details.fields).toEqual({ validFrom: 'after_term_end' });
    expect(tooLate.body.error.message).toContain(end);
    const onTheDay = await client.post<any>(`/subscriptions/${s.id}/business-partners/${partner.bpNumber}`, {
      ...partner.address,
      street: 'Neue Straße',
      validFrom: end,
    });
    expect(onTheDay.status).toBe(200);
  });

  it('a subscription ending tomorrow: its payment method changes by then, no later issue is its next, no holiday service can begin after it', async () => {
    const client = await signIn();
    const list = (await client.get<Subscription[]>('/subscriptions')).body;
    let s: Subscription | undefined;
    for (const candidate of list.filter(
      (x) => x.orderStatus === 'A' && x.roles.includes('AG') && x.mixType === 'PR',
    )) {
      const details = await client.get<any>(`/subscriptions/${candidate.id}/payment-details`);
      if (details.status === 200 && details.body.allowedChanges.includes('sepa')) {
        s = candidate;
        break;
      }
    }
    expect(s).toBeDefined();
    await endOn(s!.id, tomorrow);
    const saved = await client.post<any>(`/subscriptions/${s!.id}/payment-details/sepa`, {
      debitAccountHolder: 'Jonas Becker',
      iban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.pendingChange).toMatchObject({ paymentMethod: 'sepa', effectiveFrom: tomorrow });
    const read = await subscription(client, s!.id);
    expect(read.nextIssue === null || read.nextIssue.dateOfFirstSale! <= tomorrow).toBe(true);
    const holiday = await client.post<any>(`/subscriptions/${s!.id}/holiday-service`, {
      service: 'break',
      dateFrom: tomorrow,
      dateTo: plusDays(tomorrow, 7),
    });
    expect(holiday.status).toBe(400);
    expect(holiday.body.error.details.fields).toEqual({ dateTo: 'after_term_end' });

    // Ending today: there is no next issue at all.
    await endOn(s!.id, today);
    expect((await subscription(client, s!.id)).nextIssue).toBeNull();
  });
});
