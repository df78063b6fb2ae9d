/**
 * The multi-user licence calls (account-flows.md §4, §5, §6, §7, §8) against the seeded demo data:
 * every call with its refusals (not signed in, another user's subscription, flag off, not capable,
 * self-service off, at the maximum, licence manager restrictions, bad input), and the invitation
 * link: accept once, a bad / used / replaced token, 404, then the licence user signs in and sees the
 * licensed subscription for as long as the licence is active; an invitation link older than 14 days.
 * The licence-manager appointment: pending until its mailed link is confirmed (nothing linked before),
 * replaced, withdrawn, expired or lapsed. Limits on invitation and appointment mails (429).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { LicenseObject } from '../../../schemas/generated/licenses';
import type { Database } from '../../../server/db/database';
import type { AccountCaller } from '../../../server/account/accountContext';
import { createLicenses, LICENSE_MAIL_LIMITS } from '../../../server/multi-user-licenses/licenseService';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';
import { mergeStaged, readStoredRecord, stageRecords } from '../../../server/store/orderSystemStore';
import { pendingAppointmentsOf, replacePendingAppointment } from '../../../server/store/licenseStore';

const PUBLICATIONS = [
  { publication: 'LIP', description: 'Licence Post', kind: 'print', frequency: 'weekly' },
  { publication: 'LID', description: 'Licence Digital', kind: 'digital', frequency: 'monthly' },
];
const LICENSE_SETTINGS = {
  requireSalutation: true,
  requireRole: true,
  roles: [
    { code: 'STUD', title: { 'de-DE': 'Studierende', 'en-GB': 'Student' }, requiresAcademicYear: true },
    { code: 'LEHR', title: { 'de-DE': 'Lehrende', 'en-GB': 'Lecturer' } },
  ],
};

function tenant(
  id: string,
  features: string[],
  multiUserLicenses: Record<string, unknown> = LICENSE_SETTINGS,
): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    publications: PUBLICATIONS,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    multiUserLicenses,
  });
}

const outbox = createTestOutbox('portal-licenses-outbox-');
const on = tenant(uniqueTenantId('lic'), ['multi-user-licenses', 'cancellation'], {
  ...LICENSE_SETTINGS,
  allowDelete: false,
  allowManagerReplacement: false,
});
const off = tenant(uniqueTenantId('lic-off'), []);
/** Licence managers may hand their role on here (allowManagerReplacement). */
const onReplace = tenant(uniqueTenantId('lic-repl'), ['multi-user-licenses'], {
  ...LICENSE_SETTINGS,
  allowManagerReplacement: true,
});
const clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
/** The third persona's address (licence manager of the company's multi-licence) per tenant. */
const managerEmails = new Map<string, string>();
type Client = ReturnType<typeof browserLikeClient>;

const api = (t: ServerTenant) => browserLikeClient(baseUrl, `/t/${t.id}/api`);
const sessions = new Map<string, Client>();
async function signIn(t: ServerTenant, email = SHARED_DEMO_EMAIL): Promise<Client> {
  const key = `${t.id}/${email}`;
  if (sessions.has(key)) return sessions.get(key)!;
  const { client } = await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email });
  sessions.set(key, client);
  return client;
}

const subscriptionsOf = async (client: Client) => (await client.get<Subscription[]>('/subscriptions')).body;
/** The demo login's own multi-licence (ordering party), seeded where the feature is on. */
async function ownLicence(client: Client): Promise<Subscription> {
  return (await subscriptionsOf(client)).find((s) => s.isMultiLicense && s.roles.includes('AG'))!;
}
/** The accept link of the newest invitation to an address: its API path and token. */
async function invitationTo(
  email: string,
  t: ServerTenant,
): Promise<{ path: string; token: string; url: URL }> {
  const mail = (await outbox.mails(email, t.id))
    .filter((m) => /Einladung|invitation/.test(m.subject))
    .at(-1)!;
  const url = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  const portalPath = url.pathname.replace(`/t/${t.id}`, '');
  return { path: portalPath, token: url.searchParams.get('token')!, url };
}
/** The confirm link of the newest licence-manager appointment to an address: its API path and token. */
async function appointmentTo(email: string, t: ServerTenant) {
  const mail = (await outbox.mails(email, t.id))
    .filter((m) => /Lizenzverwaltung|licence management|managing the licences/.test(m.subject))
    .at(-1)!;
  const url = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  const [, id, appointmentId] = /\/subscriptions\/([^/]+)\/license-managers\/([^/]+)\/confirm$/.exec(
    url.pathname,
  )!;
  return {
    mail,
    url,
    token: url.searchParams.get('token')!,
    apiPath: `/subscriptions/${id}/license-manager-appointments/${appointmentId}`,
  };
}
const person = (email: string) => ({
  salutationCode: '0001',
  emailAddress: email,
  firstName: 'Clara',
  lastName1: 'Lizenz',
});
const acceptBody = (token: string) => ({
  token,
  businessPartner: { salutationCode: '0001', firstName: 'Clara', lastName1: 'Lizenz', company1: 'Uni Nord' },
  role: 'STUD',
  academicYear: '24',
});
async function events(t: ServerTenant, type: string): Promise<Array<{ data: Record<string, unknown> }>> {
  return db.query(`select data from account_events where tenant_id = $1 and type = $2 order by seq`, [
    t.id,
    type,
  ]);
}

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [on, off, onReplace], { today: clock });
  for (const l of logins)
    if (l.description.includes('licence manager (LV)')) managerEmails.set(l.tenantId, l.email);
  const { app } = createApp({
    db,
    tenants: [on, off, onReplace],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('licence objects and managers', () => {
  it('lists the licence objects with their licences in every state, and the managers', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const list = await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const [first, second] = list.body.sort((a, b) =>
      a.selfServiceEnabled === b.selfServiceEnabled ? 0 : a.selfServiceEnabled ? -1 : 1,
    );
    expect(first).toMatchObject({
      orderNumber: s.orderNumber,
      publicationName: s.publicationName,
      maxActiveLicenses: 5,
      selfServiceEnabled: true,
    });
    expect(first.licenses.map((l) => [l.isActive, l.isConfirmed])).toEqual([
      [true, true],
      [true, true],
      [true, false],
      [false, true],
      [false, true],
    ]);
    expect(second).toMatchObject({ selfServiceEnabled: false });
    expect(second.licenses).toHaveLength(12);
    const managers = await client.get<any[]>(`/subscriptions/${s.id}/license-managers`);
    expect(managers.status).toBe(200);
    expect(managers.body).toEqual([]);
    const licence = first.licenses[0];
    const partner = await client.get<any>(
      `/subscriptions/${s.id}/objects/${s.orderNumber}/licenses/${licence.id}/business-partner`,
    );
    expect(partner.body).toMatchObject({
      emailAddress: licence.businessPartner.emailAddress,
      firstName: licence.businessPartner.firstName,
    });
  });

  it('refuses a visitor who is not signed in, another account’s subscription, a subscription that is no multi-licence and a tenant without the feature', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    expect((await api(on).get<any>(`/subscriptions/${s.id}/licenses`)).status).toBe(401);
    const manager = await signIn(on, managerEmails.get(on.id));
    const notMine = await manager.get<any>(`/subscriptions/${s.id}/licenses`);
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.code).toBe('not_found');
    expect(
      (
        await manager.post<any>(`/subscriptions/${s.id}/objects/${s.orderNumber}/licenses`, {
          businessPartner: person('x@example.org'),
        })
      ).status,
    ).toBe(404);
    const plain = (await subscriptionsOf(client)).find((x) => !x.isMultiLicense)!;
    const notCapable = await client.get<any>(`/subscriptions/${plain.id}/licenses`);
    expect(notCapable.status).toBe(403);
    expect(notCapable.body.error.code).toBe('not_allowed');
    const offManager = await signIn(off, managerEmails.get(off.id));
    const company = (await subscriptionsOf(offManager)).find((x) => x.isMultiLicense)!;
    const disabled = await offManager.get<any>(`/subscriptions/${company.id}/licenses`);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('feature_disabled');
  });

  it('lets the licence manager see the company’s licences but not remove managers, delete licences, hand on the role where the tenant forbids it, or cancel', async () => {
    const manager = await signIn(on, managerEmails.get(on.id));
    const company = (await subscriptionsOf(manager)).find((x) => x.isMultiLicense)!;
    expect(company.roles).toEqual(['LV']);
    const objects = (await manager.get<LicenseObject[]>(`/subscriptions/${company.id}/licenses`)).body;
    expect(objects[0].licenses.length).toBeGreaterThan(0);
    const managers = (await manager.get<any[]>(`/subscriptions/${company.id}/license-managers`)).body;
    expect(managers).toHaveLength(1);
    const removeManager = await manager.delete<any>(
      `/subscriptions/${company.id}/license-managers/${managers[0].bpNumber}`,
    );
    expect(removeManager.status).toBe(403);
    expect(removeManager.body.error.code).toBe('not_allowed');
    const deleting = await manager.delete<any>(
      `/subscriptions/${company.id}/objects/${objects[0].orderNumber}/licenses/${objects[0].licenses[0].id}`,
    );
    expect(deleting.status).toBe(403);
    expect(deleting.body.error.code).toBe('not_allowed');
    const replacing = await manager.post<any>(
      `/subscriptions/${company.id}/license-managers`,
      person('new.manager@example.org'),
    );
    expect(replacing.status).toBe(403);
    // Nor end the company's contract (docs/decisions.md "Where the portal reads the spec differently").
    const cancelling = await manager.post<any>(`/subscriptions/${company.id}/cancel`, {
      reason: 'x',
      feedback: '',
      issue: null,
    });
    expect([cancelling.status, cancelling.body.error.code]).toEqual([403, 'not_allowed']);
    expect((await manager.get<any>(`/subscriptions/${company.id}/cancellation-reasons`)).status).toBe(403);
    // A licence manager may add users (§6) and deactivate them.
    const added = await manager.post<any>(
      `/subscriptions/${company.id}/objects/${objects[0].orderNumber}/licenses`,
      { businessPartner: person('colleague@example.org') },
    );
    expect(added.status).toBe(201);
    const deactivated = await manager.post<any>(
      `/subscriptions/${company.id}/objects/${objects[0].orderNumber}/licenses/${added.body.id}`,
      { isActive: false },
    );
    expect(deactivated.body).toMatchObject({ isActive: false });
    expect(
      (await manager.get<LicenseObject[]>(`/subscriptions/${company.id}/licenses`)).body[0].licenses.find(
        (l) => l.id === added.body.id,
      ),
    ).toBeDefined();
  });

  it('appoints a new manager only when the appointed address confirms the mailed link: pending until then, nothing linked, then the role moves', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const bad = await client.post<any>(`/subscriptions/${s.id}/license-managers`, {
      emailAddress: 'boss@example.org',
      firstName: 'B'.repeat(31),
      lastName1: 'Boss',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual({ salutationCode: 'required', firstName: 'too_long' });
    const appointed = await client.post<any>(`/subscriptions/${s.id}/license-managers`, {
      salutationCode: '0002',
      emailAddress: 'Boss@Example.org',
      firstName: 'Bert',
      lastName1: 'Boss',
    });
    expect(appointed.status).toBe(202);
    expect(appointed.body).toMatchObject({
      firstName: 'Bert',
      lastName1: 'Boss',
      email: 'boss@example.org',
      id: expect.any(String),
    });
    // Nothing changed yet: no manager, no account, no partner for the typed address.
    expect((await client.get<any[]>(`/subscriptions/${s.id}/license-managers`)).body).toEqual([]);
    expect(
      await db.query(`select 1 from users where tenant_id = $1 and email = 'boss@example.org'`, [on.id]),
    ).toHaveLength(0);
    expect(
      await db.query(
        `select 1 from business_partners where tenant_id = $1 and email_address = 'boss@example.org'`,
        [on.id],
      ),
    ).toHaveLength(0);
    expect(
      (await events(on, 'license_manager.replaced')).filter((e) => e.data.subscriptionId === s.id),
    ).toHaveLength(0);
    expect((await events(on, 'license_manager.appointment_sent')).at(-1)!.data).toEqual({
      userId: expect.any(String),
      subscriptionId: s.id,
      appointmentId: appointed.body.id,
    });
    // The list shows the pending appointment, valid for 14 days.
    const pending = await client.get<any[]>(`/subscriptions/${s.id}/license-manager-appointments`);
    expect(pending.body).toEqual([appointed.body]);
    expect(new Date(appointed.body.expiresAt).getTime() - new Date(appointed.body.sentAt).getTime()).toBe(
      14 * 86_400_000,
    );

    const link = await appointmentTo('boss@example.org', on);
    expect(link.mail.subject).toBe(`Bitte bestätigen: Lizenzverwaltung für „Licence Digital“ – ${on.name}`);
    expect(link.url.pathname).toBe(
      `/t/${on.id}/subscriptions/${s.id}/license-managers/${appointed.body.id}/confirm`,
    );
    const stored = await db.query<{ token_hash: string }>(
      `select token_hash from license_manager_appointments where tenant_id = $1 and id = $2`,
      [on.id, appointed.body.id],
    );
    expect(stored[0].token_hash).not.toContain(link.token);
    const visitor = api(on);
    const apiPath = `/subscriptions/${s.id}/license-manager-appointments/${appointed.body.id}`;
    const info = await visitor.get<any>(`${apiPath}?token=${encodeURIComponent(link.token)}`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      email: 'boss@example.org',
      firstName: 'Bert',
      lastName1: 'Boss',
      publicationName: 'Licence Digital',
      orderNumber: s.orderNumber,
    });
    // Opening the link (GET) changes nothing.
    expect((await client.get<any[]>(`/subscriptions/${s.id}/license-managers`)).body).toEqual([]);
    expect((await visitor.get<any>(apiPath)).body.error.code).toBe('license_link_invalid');
    const guessed = await visitor.post<any>(apiPath, { token: 'x'.repeat(43) });
    expect([guessed.status, guessed.body.error.code]).toEqual([400, 'license_link_invalid']);
    expect(
      (
        await visitor.post<any>(
          `/subscriptions/${s.id}/license-manager-appointments/00000000-0000-0000-0000-000000000000`,
          { token: link.token },
        )
      ).status,
    ).toBe(404);
    expect((await visitor.post<any>(apiPath, { token: link.token, extra: 1 })).status).toBe(400);

    const confirmed = await visitor.post<any>(apiPath, { token: link.token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ status: 'confirmed', email: 'boss@example.org' });
    const managers = (await client.get<any[]>(`/subscriptions/${s.id}/license-managers`)).body;
    expect(managers).toEqual([
      {
        bpNumber: expect.stringMatching(/^9\d{9}$/),
        salutationCode: '0002',
        firstName: 'Bert',
        lastName1: 'Boss',
        email: 'boss@example.org',
      },
    ]);
    expect((await client.get<any[]>(`/subscriptions/${s.id}/license-manager-appointments`)).body).toEqual([]);
    const replacedEvent = (await events(on, 'license_manager.replaced')).at(-1)!.data;
    expect(replacedEvent).toMatchObject({
      subscriptionId: s.id,
      bpNumber: managers[0].bpNumber,
      previousBpNumbers: [],
      appointmentId: appointed.body.id,
    });
    const [boss] = await db.query<{ id: string }>(
      `select id from users where tenant_id = $1 and email = 'boss@example.org'`,
      [on.id],
    );
    expect(replacedEvent.userId).toBe(boss.id);
    // Single use.
    const again = await visitor.post<any>(apiPath, { token: link.token });
    expect([again.status, again.body.error.code]).toEqual([409, 'license_already_accepted']);
    // The new manager signs in with that address and manages the licences.
    const bossClient = await signIn(on, 'boss@example.org');
    expect((await bossClient.get<any[]>(`/subscriptions/${s.id}/licenses`)).status).toBe(200);
    expect(
      (await client.delete(`/subscriptions/${s.id}/license-managers/${managers[0].bpNumber}`)).status,
    ).toBe(204);
    expect((await client.get<any[]>(`/subscriptions/${s.id}/license-managers`)).body).toEqual([]);
    expect(
      (await client.delete<any>(`/subscriptions/${s.id}/license-managers/${managers[0].bpNumber}`)).status,
    ).toBe(404);
  });

  it('a newer appointment replaces a pending one, a withdrawn one and one older than 14 days no longer confirm, and the old manager keeps the role until then', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const appoint = async (email: string) =>
      (
        await client.post<any>(`/subscriptions/${s.id}/license-managers`, {
          salutationCode: '0001',
          emailAddress: email,
          firstName: 'Mara',
          lastName1: 'Manager',
        })
      ).body;
    const first = await appoint('first.manager@example.org');
    const firstLink = await appointmentTo('first.manager@example.org', on);
    const second = await appoint('second.manager@example.org');
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/license-manager-appointments`)).body.map((a) => a.id),
    ).toEqual([second.id]);
    const visitor = api(on);
    await visitor.get('/subscriptions'); // the XSRF cookie a browser gets with the page
    expect(
      (
        await visitor.post<any>(`/subscriptions/${s.id}/license-manager-appointments/${first.id}`, {
          token: firstLink.token,
        })
      ).status,
    ).toBe(404);
    // Withdrawn: its link no longer works.
    const secondLink = await appointmentTo('second.manager@example.org', on);
    expect(
      (await client.delete(`/subscriptions/${s.id}/license-manager-appointments/${second.id}`)).status,
    ).toBe(204);
    expect(
      (await client.delete<any>(`/subscriptions/${s.id}/license-manager-appointments/${second.id}`)).status,
    ).toBe(404);
    // Recorded, so an order system that saw them sent sees them withdrawn: the first when the second
    // replaced it, the second by the delete.
    const withdrawn = (await events(on, 'license_manager.appointment_withdrawn')).map((e) => e.data);
    for (const appointment of [first, second])
      expect(withdrawn).toContainEqual({
        userId: expect.any(String),
        subscriptionId: s.id,
        appointmentId: appointment.id,
      });
    expect(
      (
        await visitor.post<any>(`/subscriptions/${s.id}/license-manager-appointments/${second.id}`, {
          token: secondLink.token,
        })
      ).status,
    ).toBe(404);
    // Older than 14 days: refused, and the list no longer shows it.
    const third = await appoint('third.manager@example.org');
    const thirdLink = await appointmentTo('third.manager@example.org', on);
    await db.query(
      `update license_manager_appointments set created_at = now() - interval '15 days' where tenant_id = $1 and id = $2`,
      [on.id, third.id],
    );
    const expired = await visitor.post<any>(
      `/subscriptions/${s.id}/license-manager-appointments/${third.id}`,
      { token: thirdLink.token },
    );
    expect([expired.status, expired.body.error.code]).toEqual([400, 'license_link_invalid']);
    expect((await visitor.get<any>(`${thirdLink.apiPath}?token=${thirdLink.token}`)).body.error.code).toBe(
      'license_link_invalid',
    );
    expect((await client.get<any[]>(`/subscriptions/${s.id}/license-manager-appointments`)).body).toEqual([]);
    for (const email of [
      'first.manager@example.org',
      'second.manager@example.org',
      'third.manager@example.org',
    ]) {
      expect(
        await db.query(`select 1 from users where tenant_id = $1 and email = $2`, [on.id, email]),
      ).toHaveLength(0);
    }
  });

  it('two appointments of one subscription at once take turns: the later one names the earlier as replaced', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const appointmentOf = (email: string, tokenHash: string) => ({
      subscriptionId: s.id,
      salutationCode: '0001',
      firstName: 'Mara',
      lastName1: 'Manager',
      email,
      tokenHash,
      appointedByUserId: 'user-1',
      locale: 'de-DE',
    });
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstStored!: (id: string) => void;
    const firstId = new Promise<string>((resolve) => (firstStored = resolve));
    const first = db.transaction(async (tx) => {
      const { appointment } = await replacePendingAppointment(
        tx,
        on.id,
        appointmentOf('one@example.org', 'hash-one'),
      );
      firstStored(appointment.id);
      await firstHeld; // still uncommitted while the second one starts
    });
    const id = await firstId;
    const second = db.transaction((tx) =>
      replacePendingAppointment(tx, on.id, appointmentOf('two@example.org', 'hash-two')),
    );
    // Released once the second waits on a lock of the first (the appointment's, or without it the
    // insert's unique index), so the test never passes by the second coming late.
    const deadline = Date.now() + 10_000;
    const waiting = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      )[0].n;
    while ((await waiting()) === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    releaseFirst();
    await first;
    const { appointment: later, replaced } = await second;
    expect(replaced).toEqual([id]);
    expect(later.id).not.toBe(id);
    expect((await pendingAppointmentsOf(db, on.id, s.id)).map((a) => a.email)).toEqual(['two@example.org']);
  });

  it('lets the appointment lapse when the person who made it may no longer appoint', async () => {
    // The company's licence manager may hand the role on here (allowManagerReplacement) and appoints a successor.
    const manager = await signIn(onReplace, managerEmails.get(onReplace.id));
    const company = (await subscriptionsOf(manager)).find((x) => x.isMultiLicense)!;
    const appointed = await manager.post<any>(`/subscriptions/${company.id}/license-managers`, {
      salutationCode: '0001',
      emailAddress: 'successor@example.org',
      firstName: 'Sam',
      lastName1: 'Successor',
    });
    expect(appointed.status).toBe(202);
    const link = await appointmentTo('successor@example.org', onReplace);
    expect((await manager.get<any[]>(`/subscriptions/${company.id}/license-managers`)).body).toHaveLength(1);
    // Before the link is confirmed, the appointing manager loses the role (as when the ordering party removes them).
    await db.query(
      `delete from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'LV'`,
      [onReplace.id, company.id],
    );
    const visitor = api(onReplace);
    await visitor.get('/subscriptions');
    const lapsed = await visitor.post<any>(link.apiPath, { token: link.token });
    expect([lapsed.status, lapsed.body.error.code]).toEqual([400, 'license_link_invalid']);
    expect(
      await db.query(`select 1 from users where tenant_id = $1 and email = 'successor@example.org'`, [
        onReplace.id,
      ]),
    ).toHaveLength(0);
    expect(
      await db.query(
        `select 1 from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'LV'`,
        [onReplace.id, company.id],
      ),
    ).toHaveLength(0);
  });
});

describe('adding, changing and deleting licences', () => {
  it('refuses bad input field by field, an address that has a licence already, and any change on an object without self-service', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const objects = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body;
    const own = objects.find((o) => o.selfServiceEnabled)!;
    const publisher = objects.find((o) => !o.selfServiceEnabled)!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const bad = await client.post<any>(path, {
      businessPartner: { emailAddress: 'no-at-sign', firstName: '', lastName1: 'L'.repeat(31) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'validation_failed',
      details: {
        fields: {
          salutationCode: 'required',
          emailAddress: 'invalid',
          firstName: 'required',
          lastName1: 'too_long',
        },
      },
    });
    // A web address in a name would open the tenant's invitation mail to any address.
    const linked = await client.post<any>(path, {
      businessPartner: { ...person('phish@example.org'), firstName: 'Bitte https://tw-login.example' },
    });
    expect([linked.status, linked.body.error.details.fields]).toEqual([400, { firstName: 'no_link' }]);
    expect(
      (await client.post<any>(path, { businessPartner: person('a@example.org'), surprise: true })).status,
    ).toBe(400);
    expect(
      (await client.post<any>(path, { businessPartner: { ...person('a@example.org'), salutationCode: 42 } }))
        .status,
    ).toBe(400);
    expect(
      (
        await client.post<any>(`/subscriptions/${s.id}/objects/12345/licenses`, {
          businessPartner: person('a@example.org'),
        })
      ).status,
    ).toBe(404);
    const existing = own.licenses[0].businessPartner.emailAddress;
    const taken = await client.post<any>(path, {
      businessPartner: person(existing.toUpperCase()),
      sendInvitation: false,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('license_exists');
    const closed = await client.post<any>(
      `/subscriptions/${s.id}/objects/${publisher.orderNumber}/licenses`,
      { businessPartner: person('b@example.org') },
    );
    expect(closed.status).toBe(403);
    expect(closed.body.error.code).toBe('self_service_disabled');
    const toggle = await client.post<any>(
      `/subscriptions/${s.id}/objects/${publisher.orderNumber}/licenses/${publisher.licenses[0].id}`,
      { isActive: false },
    );
    expect(toggle.body.error.code).toBe('self_service_disabled');
    expect((await client.post<any>(`${path}/${own.licenses[0].id}`, { isActive: 'no' })).status).toBe(400);
  });

  it('adds up to the maximum of active licences, refuses the next, and frees a seat by deactivating', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const free = own.maxActiveLicenses - own.licenses.filter((l) => l.isActive).length;
    const added: string[] = [];
    for (let i = 0; i < free; i += 1) {
      const answer = await client.post<any>(path, {
        businessPartner: person(`seat${i}@example.org`),
        sendInvitation: false,
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ isActive: true, isConfirmed: false, isReactivatable: true });
      added.push(answer.body.id);
    }
    const full = await client.post<any>(path, { businessPartner: person('one-too-many@example.org') });
    expect(full.status).toBe(409);
    expect(full.body.error.code).toBe('license_limit_reached');
    const inactive = own.licenses.find((l) => !l.isActive && l.isReactivatable)!;
    expect((await client.post<any>(`${path}/${inactive.id}`, { isActive: true })).body.error.code).toBe(
      'license_limit_reached',
    );
    const stuck = own.licenses.find((l) => !l.isReactivatable)!;
    expect((await client.post<any>(`${path}/${stuck.id}`, { isActive: true })).body.error.code).toBe(
      'license_not_reactivatable',
    );
    expect((await client.post<any>(`${path}/${added[0]}`, { isActive: false })).body).toMatchObject({
      isActive: false,
    });
    expect((await client.post<any>(`${path}/${inactive.id}`, { isActive: true })).body).toMatchObject({
      isActive: true,
    });
    expect((await client.post<any>(`${path}/${inactive.id}`, { isActive: true })).body.error.code).toBe(
      'no_change',
    );
    // Deleting frees the record; the ordering party may delete even where managers may not.
    expect((await client.delete(`${path}/${added[0]}`)).status).toBe(204);
    expect((await client.delete<any>(`${path}/${added[0]}`)).status).toBe(404);
    expect((await events(on, 'license.deleted')).some((e) => e.data.licenseId === added[0])).toBe(true);
    expect((await events(on, 'license.activated')).some((e) => e.data.licenseId === inactive.id)).toBe(true);
    expect((await events(on, 'license.deactivated')).some((e) => e.data.licenseId === added[0])).toBe(true);
    // Leave a seat for the acceptance tests.
    for (const id of added.slice(1)) expect((await client.delete(`${path}/${id}`)).status).toBe(204);
    expect((await client.post<any>(`${path}/${inactive.id}`, { isActive: false })).status).toBe(200);
  });
});

describe('the invitation link', () => {
  it('invites by e-mail; the link is accepted once, then the licence user signs in and sees the subscription while the licence is active', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, { businessPartner: person('Clara.Lizenz@Example.org') });
    expect(added.status).toBe(201);
    const link = await invitationTo('clara.lizenz@example.org', on);
    expect(link.url.pathname).toBe(`/t/${on.id}/subscriptions/${s.id}/licenses/${added.body.id}/accept`);
    expect(link.token.length).toBeGreaterThanOrEqual(40);
    // Only the hash is stored.
    const stored = await db.query<{ invite_token_hash: string }>(
      `select invite_token_hash from licenses where tenant_id = $1 and id = $2`,
      [on.id, added.body.id],
    );
    expect(stored[0].invite_token_hash).not.toContain(link.token);

    const visitor = api(on);
    const info = await visitor.get<any>(`${link.path}?token=${encodeURIComponent(link.token)}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      email: 'clara.lizenz@example.org',
      orderNumber: own.orderNumber,
      publicationName: 'Licence Digital',
      // What the invitation named, so the form starts with it (the salutation included).
      businessPartner: { firstName: 'Clara', lastName1: 'Lizenz', salutationCode: '0001' },
    });
    const noToken = await visitor.get<any>(link.path);
    expect(noToken.status).toBe(400);
    expect(noToken.body.error.code).toBe('license_link_invalid');
    const guessed = await visitor.post<any>(link.path, acceptBody('x'.repeat(43)));
    expect(guessed.body.error.code).toBe('license_link_invalid');
    const missingYear = await visitor.post<any>(link.path, {
      ...acceptBody(link.token),
      academicYear: null,
      businessPartner: {
        salutationCode: '0001',
        firstName: 'Clara',
        lastName1: 'Lizenz',
        company1: 'C'.repeat(36),
      },
    });
    expect(missingYear.status).toBe(400);
    expect(missingYear.body.error.details.fields).toEqual({ company1: 'too_long', academicYear: 'required' });
    const unknown = await visitor.get<any>(
      `/subscriptions/${s.id}/licenses/00000000-0000-0000-0000-000000000000/accept?token=${link.token}`,
    );
    expect(unknown.status).toBe(404);
    expect(
      (await visitor.get<any>(`/subscriptions/NOPE123/licenses/${added.body.id}/accept?token=${link.token}`))
        .status,
    ).toBe(404);

    const accepted = await visitor.post<any>(link.path, {
      ...acceptBody(link.token),
      businessPartner: { ...acceptBody(link.token).businessPartner, emailAddress: 'attacker@example.org' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ status: 'accepted', email: 'clara.lizenz@example.org' });
    const used = await visitor.post<any>(link.path, acceptBody(link.token));
    expect(used.status).toBe(409);
    expect(used.body.error.code).toBe('license_already_accepted');
    const after = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body
      .find((o) => o.selfServiceEnabled)!
      .licenses.find((l) => l.id === added.body.id)!;
    expect(after).toMatchObject({
      isConfirmed: true,
      isActive: true,
      role: 'STUD',
      academicYear: '24',
      businessPartner: { company1: 'Uni Nord', emailAddress: 'clara.lizenz@example.org' },
    });
    expect(after.businessPartner.bpNumber).toMatch(/^9\d{9}$/);
    expect((await events(on, 'license.accepted')).at(-1)!.data).toMatchObject({
      licenseId: added.body.id,
      subscriptionId: s.id,
    });
    expect(
      (await events(on, 'account.created')).some(
        (e) => e.data.email === 'clara.lizenz@example.org' && e.data.source === 'license-invitation',
      ),
    ).toBe(true);
    // The resend is refused once accepted.
    expect((await client.post<any>(`${path}/${added.body.id}/send-invitation`)).body.error.code).toBe(
      'license_already_confirmed',
    );

    const clara = await signIn(on, 'clara.lizenz@example.org');
    const seen = (await subscriptionsOf(clara)).find((x) => x.id === s.id)!;
    expect(seen).toMatchObject({ roles: ['WE'], isMultiLicense: true });
    expect(seen.paymentMethod).toBeUndefined();
    // Not a manager of it: the licences page is refused.
    expect((await clara.get<any>(`/subscriptions/${s.id}/licenses`)).status).toBe(403);
    // A licence user reads the company's subscription but never changes the contract (cancel, pause).
    expect(seen.isLicenseUser).toBe(true);
    const cancel = await clara.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason: 'x',
      feedback: '',
      issue: null,
    });
    expect(cancel.status).toBe(403);
    expect((await clara.get<any>(`/subscriptions/${s.id}/cancellation-reasons`)).status).toBe(403);
    expect(
      (
        await clara.post<any>(`/subscriptions/${s.id}/holiday-service`, {
          service: 'break',
          dateFrom: '2099-01-01',
          dateTo: '2099-01-20',
        })
      ).status,
    ).toBe(403);
    expect((await subscriptionsOf(client)).find((x) => x.id === s.id)).toMatchObject({
      orderStatus: s.orderStatus,
    });
    await client.post(`${path}/${added.body.id}`, { isActive: false });
    expect((await subscriptionsOf(clara)).some((x) => x.id === s.id)).toBe(false);
    await client.post(`${path}/${added.body.id}`, { isActive: true });
    expect((await subscriptionsOf(clara)).some((x) => x.id === s.id)).toBe(true);
    expect((await client.delete(`${path}/${added.body.id}`)).status).toBe(204);
    expect((await subscriptionsOf(clara)).some((x) => x.id === s.id)).toBe(false);
    // The link of a deleted licence is 'not found'.
    expect((await visitor.get<any>(`${link.path}?token=${link.token}`)).status).toBe(404);
  });

  it('a resend replaces the link: the old token stops working, the new one works', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, { businessPartner: person('resend@example.org') });
    const first = await invitationTo('resend@example.org', on);
    expect((await client.post(`${path}/${added.body.id}/send-invitation`)).status).toBe(204);
    const second = await invitationTo('resend@example.org', on);
    expect(second.token).not.toBe(first.token);
    const visitor = api(on);
    expect((await visitor.get<any>(`${first.path}?token=${first.token}`)).body.error.code).toBe(
      'license_link_invalid',
    );
    expect((await visitor.post<any>(first.path, acceptBody(first.token))).body.error.code).toBe(
      'license_link_invalid',
    );
    expect(
      (
        await visitor.post<any>(second.path, {
          ...acceptBody(second.token),
          role: 'LEHR',
          academicYear: '99',
        })
      ).status,
    ).toBe(200);
    expect(
      (await events(on, 'license.invitation_sent')).filter((e) => e.data.licenseId === added.body.id),
    ).toHaveLength(2);
    // The order system's licence key (subscriptionId~orderNumber~email) and the person, in the event.
    expect(
      (await events(on, 'license.added')).find((e) => e.data.licenseId === added.body.id)?.data,
    ).toMatchObject({
      email: 'resend@example.org',
      businessPartner: { emailAddress: 'resend@example.org' },
    });
    const accepted = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body
      .find((o) => o.selfServiceEnabled)!
      .licenses.find((l) => l.id === added.body.id)!;
    // A role without an academic year keeps none.
    expect(accepted).toMatchObject({ role: 'LEHR', academicYear: null, isConfirmed: true });
  });

  it('refuses an invitation link older than 14 days, and a resend makes a working one', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, {
      businessPartner: person('old.link@example.org'),
      sendInvitation: true,
    });
    expect(added.status).toBe(201);
    const link = await invitationTo('old.link@example.org', on);
    const visitor = api(on);
    await db.query(
      `update licenses set invited_at = now() - interval '14 days 1 minute' where tenant_id = $1 and id = $2`,
      [on.id, added.body.id],
    );
    const info = await visitor.get<any>(`${link.path}?token=${encodeURIComponent(link.token)}`);
    expect([info.status, info.body.error.code]).toEqual([400, 'license_link_invalid']);
    const accept = await visitor.post<any>(link.path, acceptBody(link.token));
    expect([accept.status, accept.body.error.code]).toEqual([400, 'license_link_invalid']);
    // Just inside the 14 days it still works.
    await db.query(
      `update licenses set invited_at = now() - interval '13 days 23 hours' where tenant_id = $1 and id = $2`,
      [on.id, added.body.id],
    );
    expect((await visitor.get<any>(`${link.path}?token=${encodeURIComponent(link.token)}`)).status).toBe(200);
    expect((await client.delete(`${path}/${added.body.id}`)).status).toBe(204);
  });

  it('refuses the invitation of a licence its manager deactivated, until it is active again', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, {
      businessPartner: person('deactivated.invitee@example.org'),
      sendInvitation: true,
    });
    expect(added.status).toBe(201);
    const link = await invitationTo('deactivated.invitee@example.org', on);
    expect((await client.post(`${path}/${added.body.id}`, { isActive: false })).status).toBe(200);
    const visitor = api(on);
    const info = await visitor.get<any>(`${link.path}?token=${encodeURIComponent(link.token)}`);
    expect([info.status, info.body.error.code]).toEqual([400, 'license_link_invalid']);
    const accept = await visitor.post<any>(link.path, acceptBody(link.token));
    expect([accept.status, accept.body.error.code]).toEqual([400, 'license_link_invalid']);
    const stored = await db.query<{ is_confirmed: boolean }>(
      `select is_confirmed from licenses where tenant_id = $1 and id = $2`,
      [on.id, added.body.id],
    );
    expect(stored).toEqual([{ is_confirmed: false }]);
    // Active again, the invitation the manager sent works.
    expect((await client.post(`${path}/${added.body.id}`, { isActive: true })).status).toBe(200);
    expect((await visitor.post<any>(link.path, acceptBody(link.token))).status).toBe(200);
    expect((await client.delete(`${path}/${added.body.id}`)).status).toBe(204);
  });

  it('refuses the accept link where the tenant has the feature off', async () => {
    const visitor = api(off);
    const rows = await db.query<{ subscription_id: string; id: string }>(
      `select subscription_id, id from licenses where tenant_id = $1 limit 1`,
      [off.id],
    );
    const answer = await visitor.get<any>(
      `/subscriptions/${rows[0].subscription_id}/licenses/${rows[0].id}/accept?token=whatever`,
    );
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('feature_disabled');
  });
});

describe('limits on invitation and appointment mails', () => {
  it('sends at most 5 invitation mails per licence and day, answers 429 with the error envelope beyond, and counts the address again after a delete', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, { businessPartner: person('flood@example.org') });
    expect(added.status).toBe(201);
    for (let i = 0; i < LICENSE_MAIL_LIMITS.perLicencePerDay - 1; i += 1)
      expect((await client.post(`${path}/${added.body.id}/send-invitation`)).status).toBe(204);
    const refused = await client.post<any>(`${path}/${added.body.id}/send-invitation`);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.any(String),
      details: { retryAfterSeconds: expect.any(Number) },
    });
    // Each mail was still waiting in the queue (this test's outbox sends when it is read) when the
    // next invitation voided its link: only the newest, whose link works, goes out.
    const invitations = (await outbox.mails('flood@example.org', on.id)).filter((m) =>
      /Einladung/.test(m.subject),
    );
    expect(invitations).toHaveLength(1);
    expect(
      (await events(on, 'license.invitation_sent')).filter((e) => e.data.licenseId === added.body.id),
    ).toHaveLength(LICENSE_MAIL_LIMITS.perLicencePerDay);
    // Deleting and adding the same person again does not reset the count; the refused add changes nothing.
    expect((await client.delete(`${path}/${added.body.id}`)).status).toBe(204);
    const readded = await client.post<any>(path, { businessPartner: person('flood@example.org') });
    expect([readded.status, readded.body.error.code]).toEqual([429, 'rate_limited']);
    const after = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    expect(after.licenses.some((l) => l.businessPartner.emailAddress === 'flood@example.org')).toBe(false);
    // Without an invitation mail nothing is counted.
    const silent = await client.post<any>(path, {
      businessPartner: person('flood@example.org'),
      sendInvitation: false,
    });
    expect(silent.status).toBe(201);
    expect((await client.delete(`${path}/${silent.body.id}`)).status).toBe(204);
  });

  it('sends one address at most 5 manager appointments per subscription and day, however often it is appointed again', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const appoint = () =>
      client.post<any>(`/subscriptions/${s.id}/license-managers`, {
        salutationCode: '0001',
        emailAddress: 'Appointed.Often@example.org',
        firstName: 'Ola',
        lastName1: 'Often',
      });
    for (let i = 0; i < LICENSE_MAIL_LIMITS.perLicencePerDay; i += 1)
      expect((await appoint()).status).toBe(202);
    const refused = await appoint();
    expect([refused.status, refused.body.error.code]).toEqual([429, 'rate_limited']);
    expect(await outbox.mails('appointed.often@example.org', on.id)).toHaveLength(
      LICENSE_MAIL_LIMITS.perLicencePerDay,
    );
    // Another address is still counted on its own.
    const other = await client.post<any>(`/subscriptions/${s.id}/license-managers`, {
      salutationCode: '0001',
      emailAddress: 'someone.else@example.org',
      firstName: 'Sam',
      lastName1: 'Else',
    });
    expect(other.status).toBe(202);
  });

  it('limits a user’s invitation and appointment mails per hour', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const [demo] = await db.query<{ id: string; email: string }>(
      `select id, email from users where tenant_id = $1 and email = $2`,
      [on.id, SHARED_DEMO_EMAIL],
    );
    const limits = { perUserPerHour: 2, perLicencePerDay: 100 };
    const licenses = createLicenses({
      db,
      mailFrom: 'portal@example.org',
      now: () => clock,
      licenseMailLimits: limits,
    });
    const caller = { tenant: on, user: demo, locale: 'de-DE' } as unknown as AccountCaller;
    // Start from an empty hourly budget (other tests of this file spent some).
    await db.query(`delete from rate_limits where tenant_id = $1 and bucket = $2`, [
      on.id,
      `license-mail:user:${demo.id}`,
    ]);
    const invited = own.licenses.find((l) => !l.isConfirmed)!;
    for (let i = 0; i < limits.perUserPerHour; i += 1)
      await licenses.sendInvitation(caller, s.id, own.orderNumber, invited.id, 'http://portal.test/');
    await expect(
      licenses.sendInvitation(caller, s.id, own.orderNumber, invited.id, 'http://portal.test/'),
    ).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    await expect(
      licenses.replaceManager(
        caller,
        s.id,
        { salutationCode: '0001', emailAddress: 'm@example.org', firstName: 'M', lastName1: 'M' },
        'http://portal.test/',
      ),
    ).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await licenses.appointments(caller, s.id)).some((a) => a.email === 'm@example.org')).toBe(false);
    await db.query(`delete from rate_limits where tenant_id = $1 and bucket = $2`, [
      on.id,
      `license-mail:user:${demo.id}`,
    ]);
  });
});

describe('the order system rejects a licence change (docs/going-live.md "Whose data is it")', () => {
  /** Rejects the newest event of a type about this licence (or subscription) as the order system. */
  async function reject(type: string, match: Record<string, unknown>): Promise<boolean | null | undefined> {
    const rows = await db.query<{ id: string; data: Record<string, unknown> }>(
      `select id::text, data from account_events where tenant_id = $1 and type = $2 order by seq desc`,
      [onReplace.id, type],
    );
    const event = rows.find((row) => Object.entries(match).every(([key, value]) => row.data[key] === value))!;
    const answer = await acknowledgeChange(
      { db, now: () => clock, mailFrom: 'portal@licences.test' },
      onReplace,
      '00000000-0000-4000-8000-000000000000',
      event.id,
      { status: 'rejected', reason: { 'de-DE': 'Abgelehnt.', 'en-GB': 'Refused.' }, locale: 'de-DE' },
    );
    return answer.acknowledgement.undone;
  }
  /** A browser on a mailed link: it has the page's XSRF cookie before it posts. */
  async function visitor(): Promise<Client> {
    const browser = api(onReplace);
    await browser.get('/subscriptions');
    return browser;
  }

  it('takes the access a licence gave with the licence, and gives back what a rejected deactivation took', async () => {
    const client = await signIn(onReplace);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const licenceOf = async (id: string) =>
      (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body
        .flatMap((o) => o.licenses)
        .find((l) => l.id === id);

    // Accepted, then deactivated: the rejection of the deactivation gives the user the subscription back.
    const kept = await client.post<any>(path, { businessPartner: person('kept.licence@example.org') });
    const keptLink = await invitationTo('kept.licence@example.org', onReplace);
    expect((await (await visitor()).post<any>(keptLink.path, acceptBody(keptLink.token))).status).toBe(200);
    const keptUser = await signIn(onReplace, 'kept.licence@example.org');
    expect((await subscriptionsOf(keptUser)).some((x) => x.id === s.id)).toBe(true);
    await client.post(`${path}/${kept.body.id}`, { isActive: false });
    expect((await subscriptionsOf(keptUser)).some((x) => x.id === s.id)).toBe(false);
    expect(await reject('license.deactivated', { licenseId: kept.body.id })).toBe(true);
    expect(await licenceOf(kept.body.id)).toMatchObject({ isActive: true, isConfirmed: true });
    expect((await subscriptionsOf(keptUser)).some((x) => x.id === s.id)).toBe(true);

    // Accepted by a new account: the acceptance is the licence's change, not the account's.
    const added = await client.post<any>(path, { businessPartner: person('refused.licence@example.org') });
    const link = await invitationTo('refused.licence@example.org', onReplace);
    expect((await (await visitor()).post<any>(link.path, acceptBody(link.token))).status).toBe(200);
    const user = await signIn(onReplace, 'refused.licence@example.org');
    expect((await subscriptionsOf(user)).find((x) => x.id === s.id)).toMatchObject({ roles: ['WE'] });
    // The new account is the portal's own record: the order system cannot reject it (409 not_a_change).
    await expect(reject('account.created', { email: 'refused.licence@example.org' })).rejects.toMatchObject({
      status: 409,
      code: 'not_a_change',
    });
    expect(await licenceOf(added.body.id)).toMatchObject({ isConfirmed: true });
    expect(await reject('license.accepted', { licenseId: added.body.id })).toBe(true);
    expect(await licenceOf(added.body.id)).toMatchObject({ isConfirmed: false });
    expect((await subscriptionsOf(user)).some((x) => x.id === s.id)).toBe(false);
    expect(await reject('license.added', { licenseId: added.body.id })).toBe(true);
    expect(await licenceOf(added.body.id)).toBeUndefined();
    expect((await subscriptionsOf(user)).some((x) => x.id === s.id)).toBe(false);
    // The other licence's user is untouched by both.
    expect((await subscriptionsOf(keptUser)).some((x) => x.id === s.id)).toBe(true);
  });

  it('gives the manager role back to the managers before a rejected replacement', async () => {
    const client = await signIn(onReplace);
    const company = await ownLicence(client);
    const managersOf = async () =>
      (
        await db.query<{ bp_number: string }>(
          `select bp_number from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'LV' order by 1`,
          [onReplace.id, company.id],
        )
      ).map((row) => row.bp_number);
    const appoint = async (email: string) => {
      const appointed = await client.post<any>(`/subscriptions/${company.id}/license-managers`, {
        salutationCode: '0002',
        emailAddress: email,
        firstName: 'Rita',
        lastName1: 'Manager',
      });
      expect(appointed.status).toBe(202);
      const link = await appointmentTo(email, onReplace);
      expect((await (await visitor()).post<any>(link.apiPath, { token: link.token })).status).toBe(200);
      return appointed.body.id as string;
    };
    await appoint('kept.manager@example.org');
    const before = await managersOf();
    expect(before).toHaveLength(1);
    const appointmentId = await appoint('refused.manager@example.org');
    expect(await managersOf()).not.toEqual(before);
    expect(await reject('license_manager.replaced', { appointmentId })).toBe(true);
    expect(await managersOf()).toEqual(before);
  });

  it('keeps a replacement of managers on top of the order system’s subscription record until it answers', async () => {
    const client = await signIn(onReplace);
    const company = await ownLicence(client);
    const entity = orderSystemEntity('subscriptions')!;
    const managersOf = async () =>
      (
        await db.query<{ bp_number: string }>(
          `select bp_number from subscription_roles where tenant_id = $1 and subscription_id = $2 and role = 'LV' order by 1`,
          [onReplace.id, company.id],
        )
      ).map((row) => row.bp_number);
    // The order system's record as it stands: its own roles, not the licence users' (the portal's rows).
    const { version, ...record } = (await readStoredRecord(db, onReplace.id, entity, company.id))!;
    record.roles = (
      await db.query<{ bpNumber: string; role: string }>(
        `select bp_number as "bpNumber", role from subscription_roles
          where tenant_id = $1 and subscription_id = $2 and not via_license order by 1, 2`,
        [onReplace.id, company.id],
      )
    ).map((role) => ({ ...role }));
    let sent = Number(version);
    const send = async (newer: boolean) => {
      if (newer) sent += 1;
      const read = readRecord(entity, { ...record, version: sent });
      if (!read.ok) throw new Error(JSON.stringify(read.problems));
      return db.transaction(async (tx) => {
        await stageRecords(tx, [read.staged]);
        return mergeStaged(tx, onReplace.id, entity);
      });
    };
    const before = await managersOf();
    const appoint = async (email: string) => {
      const appointed = await client.post<any>(`/subscriptions/${company.id}/license-managers`, {
        salutationCode: '0002',
        emailAddress: email,
        firstName: 'Paula',
        lastName1: 'Pending',
      });
      const link = await appointmentTo(email, onReplace);
      expect((await (await visitor()).post<any>(link.apiPath, { token: link.token })).status).toBe(200);
      return appointed.body.id as string;
    };

    // Pending: a newer record with the managers before, and the same record again, leave it on top.
    const pendingId = await appoint('pending.manager@example.org');
    const appointed = await managersOf();
    expect(appointed).not.toEqual(before);
    await send(true);
    expect(await managersOf()).toEqual(appointed);
    // The same record again changes nothing (a second identical import).
    expect(await send(false)).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await managersOf()).toEqual(appointed);
    // Rejected after the records: the managers before it, as the order system sent them.
    expect(await reject('license_manager.replaced', { appointmentId: pendingId })).toBe(true);
    expect(await managersOf()).toEqual(before);

    // Confirmed: the order system's next record is its last word on the managers.
    const confirmedId = await appoint('confirmed.manager@example.org');
    const [event] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = 'license_manager.replaced' and data ->> 'appointmentId' = $2`,
      [onReplace.id, confirmedId],
    );
    await acknowledgeChange(
      { db, now: () => new Date(), mailFrom: 'portal@licences.test' },
      onReplace,
      '00000000-0000-4000-8000-000000000000',
      event.id,
      { status: 'confirmed' },
    );
    const confirmed = await managersOf();
    expect(confirmed).not.toEqual(before);
    // The record it had before the confirmation, again: the change stays on it.
    await send(false);
    expect(await managersOf()).toEqual(confirmed);
    // A newer one is the order system's last word.
    await send(true);
    expect(await managersOf()).toEqual(before);
  });
});

describe("an invitation link over a client's budget that someone else's wrong tokens spent", () => {
  it('still opens with the genuine token, answers a form mistake as one, and refuses every wrong token with a wait', async () => {
    const client = await signIn(on);
    const s = await ownLicence(client);
    const own = (await client.get<LicenseObject[]>(`/subscriptions/${s.id}/licenses`)).body.find(
      (o) => o.selfServiceEnabled,
    )!;
    const path = `/subscriptions/${s.id}/objects/${own.orderNumber}/licenses`;
    const added = await client.post<any>(path, { businessPartner: person('nat.lizenz@example.org') });
    expect(added.status).toBe(201);
    const link = await invitationTo('nat.lizenz@example.org', on);
    // The calls of the accept page, from one address behind a shared NAT, with a budget of two.
    const licenses = createLicenses({
      db,
      mailFrom: 'portal@example.org',
      now: () => clock,
      signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 2 },
    });
    const shared = '203.0.113.90';
    const info = () => licenses.acceptInfo(on, s.id, added.body.id, link.token, shared);
    const guess = (i: number) =>
      licenses.acceptInfo(on, s.id, added.body.id, `wrong-${i}`.padEnd(43, 'x'), shared);
    await expect(guess(0)).rejects.toMatchObject({ status: 400, code: 'license_link_invalid' });
    await expect(guess(1)).rejects.toMatchObject({ status: 400, code: 'license_link_invalid' });
    await expect(guess(2)).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    // The invited person behind the same address.
    await expect(info()).resolves.toMatchObject({ email: 'nat.lizenz@example.org' });
    await expect(
      licenses.accept(
        on,
        s.id,
        added.body.id,
        { ...acceptBody(link.token), academicYear: null } as never,
        shared,
      ),
    ).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    await expect(guess(3)).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    // Nothing was accepted; the seat is given back.
    expect((await client.delete(`${path}/${added.body.id}`)).status).toBe(204);
  });
});
