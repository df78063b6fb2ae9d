/**
 * Account events are recorded by every state-changing call, in the transaction of the change
 * (a failed change records none; docs/going-live.md "Account events and webhooks"). Driven through
 * the real API against the seeded demo data.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import { validateTenantSource } from '../../../tenant';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeTenant, makeThemePreset } from '../../support/builders';
import { createTestOutbox, firstLink, signInByMagicLink } from '../../support/outbox';

/** A tenant file as the server gets it: validated, with every default applied. */
function resolvedTenant() {
  const id = uniqueTenantId('events');
  const source = makeTenant({
    id,
    name: 'Verlag Events',
    hosts: [],
    features: ['manual-registration', 'payment-history', 'invoice-request', 'contact-form'],
    login: { magicLink: true, password: true },
    contactForm: {
      activities: [{ activity: 'GENERAL', name: { 'de-DE': 'Allgemein' }, allowMissingOrderNumber: true }],
    },
    orderAttributes: {
      attributes: [{ type: 'DELIVERY_NOTE', label: { 'de-DE': 'Hinweis' }, editable: true, creatable: true }],
    },
  });
  const { tenant: resolved, issues } = validateTenantSource(`tenants/${id}.json`, JSON.stringify(source), {
    themePresets: { classic: makeThemePreset() },
  });
  if (!resolved) throw new Error(issues.map((issue) => issue.message).join('\n'));
  return resolved;
}

const tenant = resolvedTenant();

const outbox = createTestOutbox('portal-events-outbox-');
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let emails: string[];

interface EventRow {
  id: string;
  type: string;
  user_id: string | null;
  subject_type: string;
  subject_id: string;
  data: Record<string, unknown>;
}

async function eventsOf(type: string): Promise<EventRow[]> {
  return db.query<EventRow>(
    `select id::text, type, user_id, subject_type, subject_id, data from account_events where tenant_id = $1 and type = $2 order by seq`,
    [tenant.id, type],
  );
}

/** A user's rows of the account's activity record for one action, oldest first. */
async function activityOf(userId: string, action: string) {
  return db.query<{ subject_id: string | null; details: Record<string, unknown> }>(
    `select subject_id, details from account_activity where tenant_id = $1 and user_id = $2 and action = $3 order by id`,
    [tenant.id, userId, action],
  );
}

async function lastLink(to: string, param: string): Promise<string> {
  return firstLink((await outbox.mails(to)).at(-1)!.text).searchParams.get(param)!;
}

async function anonymous() {
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/subscriptions'); // picks up the XSRF cookie
  return client;
}

async function signIn(email: string) {
  const { client, login } = await signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email });
  return { client, userId: login.user.id as string };
}

/** A trigger that makes the next statement on `table` fail: a change that breaks half-way. */
async function failOn(table: string) {
  await db.query(
    `create or replace function events_test_fail() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`,
  );
  await db.query(
    `create trigger events_test_fail before insert or update on ${table} for each row execute function events_test_fail()`,
  );
}

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenant]);
  emails = logins.filter((l) => l.tenantId === tenant.id).map((l) => l.email);
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterEach(async () => {
  for (const table of ['account_events', 'subscriptions', 'invoice_requests', 'contact_messages']) {
    await db.query(`drop trigger if exists events_test_fail on ${table}`);
  }
});

afterAll(async () => close?.());

describe('account events are recorded with the change', () => {
  it('records invoice.requested for the first request of the day only, with a random UUID as its id', async () => {
    const { client, userId } = await signIn(emails[0]);
    const sub = (await client.get<Subscription[]>('/subscriptions')).body.find(
      (s) => s.renewal?.autoRenewal,
    )!;
    const invoice = (await client.get(`/subscriptions/${sub.id}/payment-history?page=0`)).body.items[0];
    expect(
      (await client.post(`/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}`))
        .status,
    ).toBe(200);
    expect(
      (await client.post(`/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}`))
        .status,
    ).toBe(409);
    const events = (await eventsOf('invoice.requested')).filter((e) => e.subject_id === sub.id);
    expect(events).toHaveLength(1);
    expect(events[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(events[0]).toMatchObject({
      user_id: userId,
      subject_type: 'subscription',
      data: {
        userId,
        subjectKind: 'subscription',
        subscriptionId: sub.id,
        purchaseOrderId: null,
        invoiceNumber: invoice.invoiceNumber,
        status: expect.any(String),
      },
    });
    // The account's activity record lists it once too, written in the event's statement.
    expect(await activityOf(userId, 'invoice_request')).toEqual([
      {
        subject_id: sub.id,
        details: { invoiceNumber: invoice.invoiceNumber, status: events[0].data.status },
      },
    ]);
  });

  it('records order_attribute.changed with the value before', async () => {
    const { client, userId } = await signIn(emails[0]);
    const sub = (await client.get<Subscription[]>('/subscriptions')).body.find((s) => s.orderStatus === 'A')!;
    expect(
      (
        await client.post(`/subscriptions/${sub.id}/attributes`, {
          type: 'DELIVERY_NOTE',
          value: 'Erster Hinweis',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await client.post(`/subscriptions/${sub.id}/attributes`, {
          type: 'DELIVERY_NOTE',
          value: 'Zweiter Hinweis',
        })
      ).status,
    ).toBe(200);
    const events = (await eventsOf('order_attribute.changed')).filter((e) => e.subject_id === sub.id);
    const before = sub.orderAttributes.find((a) => a.type === 'DELIVERY_NOTE')?.value ?? null;
    expect(events.map((e) => e.data)).toEqual([
      {
        userId,
        subscriptionId: sub.id,
        orderNumber: sub.orderNumber,
        type: 'DELIVERY_NOTE',
        value: 'Erster Hinweis',
        previousValue: before,
      },
      {
        userId,
        subscriptionId: sub.id,
        orderNumber: sub.orderNumber,
        type: 'DELIVERY_NOTE',
        value: 'Zweiter Hinweis',
        previousValue: 'Erster Hinweis',
      },
    ]);
  });

  it('records contact_message.created for an anonymous message, with the message id as subject', async () => {
    const client = await anonymous();
    const sent = await client.post('/contact', {
      activity: 'GENERAL',
      missingOrderNumber: true,
      contactDetails: { firstName: 'Erika', lastName: 'Muster', email: 'erika@example.org' },
      message: 'Bitte rufen Sie mich an.',
    });
    expect(sent.status).toBe(201);
    const [event] = (await eventsOf('contact_message.created')).filter((e) => e.subject_id === sent.body.id);
    expect(event).toMatchObject({
      user_id: null,
      subject_type: 'contact_message',
      data: {
        messageId: sent.body.id,
        userId: null,
        activity: 'GENERAL',
        missingOrderNumber: true,
        orderNumber: null,
        message: 'Bitte rufen Sie mich an.',
        attachment: null,
      },
    });
  });

  it('records account.created when a registration is confirmed, not when it is asked for', async () => {
    const client = await anonymous();
    const address = `new-${Date.now()}@reader.example`;
    expect(
      (
        await client.post('/register', {
          displayName: 'New Reader',
          email: address,
          password: 'Reader2026',
          passwordConfirm: 'Reader2026',
        })
      ).status,
    ).toBe(202);
    const token = await lastLink(address, 'confirm');
    expect((await eventsOf('account.created')).filter((e) => e.data.email === address)).toEqual([]);
    const confirmed = await client.post('/register/confirm', { token, password: 'Reader2026' });
    expect(confirmed.status).toBe(200);
    expect((await eventsOf('account.created')).filter((e) => e.data.email === address)).toEqual([
      expect.objectContaining({
        user_id: confirmed.body.user.id,
        subject_type: 'account',
        data: { userId: confirmed.body.user.id, email: address, source: 'registration', bpNumbers: [] },
      }),
    ]);
  });

  it("records account.created and subscription.linked when a partial login's sign-in link opens an account for the address on record", async () => {
    const [target] = await db.query<{
      order_number: string;
      last_name1: string;
      subscription_id: string;
      bp_number: string;
    }>(
      `select s.order_number::text as order_number, bp.last_name1, s.id as subscription_id, bp.bp_number::text as bp_number
         from subscriptions s
         join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role = 'AG'
         join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
        where s.tenant_id = $1 and bp.last_name1 is not null
          and not exists (select 1 from user_business_partners u where u.tenant_id = bp.tenant_id and u.bp_number = bp.bp_number)
        order by s.id limit 1`,
      [tenant.id],
    );
    const onRecord = `record-${Date.now()}@reader.example`;
    await db.query(
      `update business_partners set email_address = $3 where tenant_id = $1 and bp_number = $2`,
      [tenant.id, target.bp_number, onRecord],
    );
    const client = await anonymous();
    expect(
      (
        await client.post('/login/order-number', {
          orderNumber: target.order_number,
          lastName: target.last_name1,
        })
      ).body.error.details.status,
    ).toBe('confirm_email');
    const opened = await client.post('/login/token', { token: await lastLink(onRecord, 'p') });
    expect(opened.status).toBe(200);
    const userId = opened.body.user.id;
    expect(
      (await eventsOf('account.created')).filter((e) => e.user_id === userId).map((e) => e.data),
    ).toEqual([{ userId, email: onRecord, source: 'sign-in-link', bpNumbers: [target.bp_number] }]);
    expect(
      (await eventsOf('subscription.linked')).filter((e) => e.user_id === userId).map((e) => e.data),
    ).toEqual([
      {
        userId,
        bpNumber: target.bp_number,
        subscriptionId: target.subscription_id,
        method: 'sign-in-link',
        emailStored: null,
      },
    ]);
  });

  it("records subscription.linked when the link dialog links a subscription: at once for the account's own address on record, once the mailed link is confirmed for another", async () => {
    const { client, userId } = await signIn(emails[2]);
    const [own, other] = await db.query<{
      id: string;
      order_number: string;
      zipcode: string;
      bp_number: string;
      last_name1: string;
    }>(
      `select * from (
         select distinct on (bp.bp_number) s.id, s.order_number::text as order_number, bp.zipcode,
                bp.bp_number::text as bp_number, bp.last_name1
           from subscriptions s
           join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role = 'AG'
           join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
          where s.tenant_id = $1 and s.order_status = 'A' and bp.email_address is null and bp.last_name1 is not null and coalesce(s.details->>'salesDocumentType', '') <> 'WBZA'
            and not exists (select 1 from user_business_partners u where u.tenant_id = bp.tenant_id and u.bp_number = bp.bp_number)
          order by bp.bp_number, s.id) one_each
        order by id limit 2`,
      [tenant.id],
    );
    const onRecord = `record-link-${Date.now()}@reader.example`;
    for (const [target, email] of [
      [own, emails[2]],
      [other, onRecord],
    ] as const)
      await db.query(
        `update business_partners set email_address = $3 where tenant_id = $1 and bp_number = $2`,
        [tenant.id, target.bp_number, email],
      );
    const ask = (target: typeof own) =>
      client.post('/subscriptions', {
        orderNumber: target.order_number,
        zipcode: target.zipcode,
        lastName: target.last_name1,
        preferredRole: 'AG',
      });
    const linked = await ask(own);
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect((await ask(other)).body.error.details.status).toBe('confirm_email');
    const confirmed = await (
      await anonymous()
    ).post('/link-subscription/confirm', { token: await lastLink(onRecord, 't') });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await eventsOf('subscription.linked')).filter((e) => e.user_id === userId)).toEqual(
      [
        [own, 'order-number'],
        [other, 'confirm-link'],
      ].map(([target, method]) =>
        expect.objectContaining({
          subject_type: 'subscription',
          subject_id: (target as typeof own).id,
          data: {
            userId,
            bpNumber: (target as typeof own).bp_number,
            subscriptionId: (target as typeof own).id,
            method,
            emailStored: null,
          },
        }),
      ),
    );
    expect(await activityOf(userId, 'link_subscription')).toEqual([
      { subject_id: own.id, details: { bpNumber: own.bp_number, byBpNumber: false, preferredRole: 'AG' } },
      {
        subject_id: other.id,
        details: { bpNumber: other.bp_number, byBpNumber: false, preferredRole: null },
      },
    ]);
  });
});

describe('a failed change records no event', () => {
  it('leaves neither the attribute nor an event when recording the event fails after the change', async () => {
    const { client } = await signIn(emails[0]);
    const sub = (await client.get<Subscription[]>('/subscriptions')).body.find((s) => s.orderStatus === 'A')!;
    const before = await eventsOf('order_attribute.changed');
    // The change has run (update subscriptions) when the event's insert fails in the same transaction.
    await failOn('account_events');
    const answer = await client.post(`/subscriptions/${sub.id}/attributes`, {
      type: 'DELIVERY_NOTE',
      value: 'Darf nicht bleiben',
    });
    expect(answer.status).toBe(500);
    const after = (await client.get<Subscription[]>('/subscriptions')).body.find((s) => s.id === sub.id)!;
    expect(after.orderAttributes).not.toContainEqual({ type: 'DELIVERY_NOTE', value: 'Darf nicht bleiben' });
    expect(await eventsOf('order_attribute.changed')).toEqual(before);
  });

  it('records no event when the change itself fails', async () => {
    const { client } = await signIn(emails[0]);
    const sub = (await client.get<Subscription[]>('/subscriptions')).body.find(
      (s) => s.renewal?.autoRenewal,
    )!;
    // Not the invoice the first test requested: this one has not been asked for today.
    const invoice = (await client.get(`/subscriptions/${sub.id}/payment-history?page=0`)).body.items[1];
    const before = await eventsOf('invoice.requested');
    await failOn('invoice_requests');
    expect(
      (await client.post(`/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}`))
        .status,
    ).toBe(500);
    expect(await eventsOf('invoice.requested')).toEqual(before);
  });

  it('keeps message, mail and event together: a message that fails to store leaves no event', async () => {
    const before = await eventsOf('contact_message.created');
    await failOn('account_events');
    const client = await anonymous();
    const sent = await client.post('/contact', {
      activity: 'GENERAL',
      missingOrderNumber: true,
      contactDetails: { firstName: 'A', lastName: 'B', email: 'a@b.example' },
      message: 'x',
    });
    expect(sent.status).toBe(500);
    expect(await eventsOf('contact_message.created')).toEqual(before);
    const stored = await db.query(
      `select 1 from contact_messages where tenant_id = $1 and contact_details->>'email' = 'a@b.example'`,
      [tenant.id],
    );
    expect(stored).toEqual([]);
  });
});
