/**
 * POST /e-cards and the e-card job (account-flows.md §2 "E-card", §5, §7, §9; docs/subscribers.md "E-cards"):
 * cards sent now and at their time as real e-mails with the template image inline, the refusals
 * (no session, flag off, another's subscription, bad fields, too early), the abuse limits (daily cap,
 * message length) and one mail even when two job runners race over the same due card.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { sendDueECards } from '../../../server/jobs/eCards';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Database } from '../../../server/db/database';
import { ECARD_DAILY_CAP, ECARD_MESSAGE_MAX_LENGTH } from '../../../engine/domain/eCard';
import { getTestDatabase } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

const TEMPLATES = [
  { name: 'balloons', category: 'birthday', previewImageUrl: 'birthday.png' },
  { name: 'thank-you', category: 'thanks', previewImageUrl: 'thanks.png' },
  { name: 'remote', category: 'season', previewImageUrl: 'https://cdn.example.com/season.png' },
];

function tenant(id: string, features: string[], settings: Record<string, unknown> = {}): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    eCard: { templates: TEMPLATES },
    ...settings,
  });
}

// The images the tests send are the demo's (tenants/assets/technikwelt/e-cards/); each test file has its own database.
const cards = tenant('technikwelt', ['e-card']);
const off = tenant('ecard-off', []);
const outbox = createTestOutbox('portal-ecard-outbox-');
let clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
type Client = ReturnType<typeof browserLikeClient>;
const DAY = 86_400_000;
const MAIL_FROM = 'Kundenportal <no-reply@portal.example>';

async function signIn(t: ServerTenant, email = SHARED_DEMO_EMAIL): Promise<Client> {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email })).client;
}

const card = (overrides: Record<string, unknown> = {}) => ({
  from: 'Alex',
  to: 'Sam',
  toEmail: 'sam@friends.example',
  message: 'Alles Gute zum Geburtstag!',
  sendAt: null,
  template: { name: 'balloons', category: 'birthday' },
  ...overrides,
});

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [cards, off], { today: clock });
  const { app } = createApp({
    db,
    tenants: [cards, off],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
  // The demo seed's cards are not this story's.
  await db.query(`delete from e_cards`);
});

afterAll(async () => close?.());

describe('POST /e-cards', () => {
  it('sends a card now as an e-mail with the template image inline and records e_card.sent', async () => {
    const client = await signIn(cards);
    const sent = await client.post('/e-cards', card({ toEmail: 'now@friends.example' }));
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: 'sent' });
    const [mail] = await outbox.mails('now@friends.example');
    expect(mail.subject).toBe('Alex hat Ihnen eine E-Card geschickt');
    expect(mail.text).toContain('Alles Gute zum Geburtstag!');
    // Quoted-printable: soft line breaks joined, '=3D' read as '='.
    const eml = outbox.eml(mail).replace(/=\n/g, '').replace(/=3D/g, '=');
    expect(eml).toContain('Content-Type: image/png');
    expect(eml).toMatch(/Content-ID: <e-card-image@portal>/);
    expect(eml).toContain('src="cid:e-card-image@portal"');
    const events = await db.query<{ type: string; data: any }>(
      `select type, data from account_events where tenant_id = $1 and type like 'e_card.%'`,
      [cards.id],
    );
    expect(events.map((e) => e.type)).toEqual(['e_card.sent']);
    // The event names the card, not the recipient or the message.
    expect(JSON.stringify(events[0].data)).not.toContain('now@friends.example');
  });

  it('writes the card in the language of the screen and links an https image when the tenant ships no file', async () => {
    const client = await signIn(cards);
    const sent = await client.post(
      '/e-cards',
      card({ toEmail: 'english@friends.example', template: { name: 'remote' } }),
      { 'accept-language': 'en-GB' },
    );
    expect(sent.status).toBe(201);
    const [mail] = await outbox.mails('english@friends.example');
    expect(mail.subject).toBe('Alex has sent you an e-card');
    const eml = outbox.eml(mail);
    expect(eml).not.toContain('Content-ID:');
    expect(eml).toContain('https://cdn.example.com/season.png');
  });

  it('schedules a timed card that the job sends at its time, not before, and only once', async () => {
    const client = await signIn(cards);
    const at = new Date(clock.getTime() + DAY + 60 * 60_000);
    const scheduled = await client.post(
      '/e-cards',
      card({ toEmail: 'later@friends.example', sendAt: at.toISOString(), template: { name: 'thank-you' } }),
    );
    expect(scheduled.status).toBe(201);
    expect(scheduled.body).toEqual({ id: expect.any(String), status: 'scheduled', sendAt: at.toISOString() });
    expect(
      await sendDueECards(db, new Date(at.getTime() - 60_000), { tenants: [cards], mailFrom: MAIL_FROM }),
    ).toBe(0);
    expect(await outbox.mails('later@friends.example')).toHaveLength(0);
    expect(await sendDueECards(db, at, { tenants: [cards], mailFrom: MAIL_FROM })).toBe(1);
    expect(
      await sendDueECards(db, new Date(at.getTime() + DAY), { tenants: [cards], mailFrom: MAIL_FROM }),
    ).toBe(0);
    const arrived = await outbox.mails('later@friends.example');
    expect(arrived).toHaveLength(1);
    expect(arrived[0].text).toContain('Alles Gute zum Geburtstag!');
    const types = (
      await db.query<{ type: string }>(
        `select type from account_events where tenant_id = $1 and data->>'eCardId' = $2 order by seq`,
        [cards.id, scheduled.body.id],
      )
    ).map((e) => e.type);
    expect(types).toEqual(['e_card.scheduled', 'e_card.sent']);
  });

  it('sends a due card once when two job runners race over it', async () => {
    const client = await signIn(cards);
    const at = new Date(clock.getTime() + 2 * DAY);
    const scheduled = await client.post(
      '/e-cards',
      card({ toEmail: 'race@friends.example', sendAt: at.toISOString() }),
    );
    expect(scheduled.status).toBe(201);
    const runs = await Promise.all(
      [1, 2, 3].map(() => sendDueECards(db, at, { tenants: [cards], mailFrom: MAIL_FROM })),
    );
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    const queued = await db.query<{ n: number }>(
      `select count(*)::int as n from mail_queue where tenant_id = $1 and mail->>'to' = 'race@friends.example'`,
      [cards.id],
    );
    expect(queued[0].n).toBe(1);
  });

  it('refuses a timed card less than one day ahead or more than a year ahead, naming the field', async () => {
    const client = await signIn(cards);
    const early = await client.post(
      '/e-cards',
      card({ sendAt: new Date(clock.getTime() + 2 * 60 * 60_000).toISOString() }),
    );
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({
      code: 'validation_failed',
      details: { fields: { sendAt: 'too_early' } },
    });
    const late = await client.post(
      '/e-cards',
      card({ sendAt: new Date(clock.getTime() + 400 * DAY).toISOString() }),
    );
    expect(late.body.error.details.fields).toEqual({ sendAt: 'too_late' });
  });

  it('refuses missing fields, a bad address, an unknown template and an over-long message, all at once or by the schema', async () => {
    const client = await signIn(cards);
    const bad = await client.post(
      '/e-cards',
      card({ from: ' ', to: '', toEmail: 'not-an-address', message: ' ', template: { name: 'nope' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual({
      template: 'invalid',
      from: 'required',
      to: 'required',
      toEmail: 'invalid',
      message: 'required',
    });
    const long = await client.post('/e-cards', card({ message: 'x'.repeat(ECARD_MESSAGE_MAX_LENGTH + 1) }));
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('validation_failed');
    const missing = await client.post('/e-cards', { from: 'Alex' });
    expect(missing.status).toBe(400);
  });

  it('refuses anonymous callers, tenants without the feature and subscriptions that are not the user’s', async () => {
    const anonymous = browserLikeClient(baseUrl, `/t/${cards.id}/api`);
    await anonymous.get('/subscriptions');
    expect((await anonymous.post('/e-cards', card())).status).toBe(401);
    const elsewhere = await signIn(off);
    const disabled = await elsewhere.post('/e-cards', card());
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('feature_disabled');
    const client = await signIn(cards);
    const foreign = await client.post('/e-cards', card({ subscriptionId: 'XYZ0000000001' }));
    expect(foreign.status).toBe(404);
    const own = (await client.get<Array<{ id: string }>>('/subscriptions')).body[0];
    const fromSubscription = await client.post(
      '/e-cards',
      card({ subscriptionId: own.id, toEmail: 'from-subscription@friends.example' }),
    );
    expect(fromSubscription.status).toBe(201);
    const event = await db.query<{ data: any }>(
      `select data from account_events where tenant_id = $1 and type = 'e_card.sent' and data->>'eCardId' = $2`,
      [cards.id, fromSubscription.body.id],
    );
    expect(event[0].data.subscriptionId).toBe(own.id);
  });

  it(`stops a user at ${ECARD_DAILY_CAP} cards in 24 hours and lets them send again a day later`, async () => {
    const sender = await signIn(cards);
    await db.query(`delete from e_cards where tenant_id = $1`, [cards.id]);
    const answers = [];
    for (let i = 0; i < ECARD_DAILY_CAP + 1; i++)
      answers.push((await sender.post('/e-cards', card({ toEmail: `cap${i}@friends.example` }))).status);
    expect(answers.slice(0, ECARD_DAILY_CAP).every((s) => s === 201)).toBe(true);
    expect(answers[ECARD_DAILY_CAP]).toBe(429);
    const refused = await sender.post('/e-cards', card());
    expect(refused.body.error.code).toBe('e_card_limit_reached');
    // The 429 says when the first of the day's cards leaves the 24 hours.
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(DAY / 1000 - 600);
    expect(wait).toBeLessThanOrEqual(DAY / 1000);
    expect(refused.body.error.details.retryAfterSeconds).toBe(wait);
    clock = new Date(clock.getTime() + DAY + 60_000);
    // A day later the session has ended too: sign in again.
    expect(
      (await (await signIn(cards)).post('/e-cards', card({ toEmail: 'next-day@friends.example' }))).status,
    ).toBe(201);
  });
});

describe('GET /e-cards and DELETE /e-cards/{id}: timed cards until they go out', () => {
  it('lists the user’s own waiting cards, soonest first, and cancels one so that it never goes out', async () => {
    const client = await signIn(cards);
    // Another account's timed card, written as POST /e-cards would have.
    await db.query(
      `insert into users (tenant_id, id, email) values ($1, 'someone-else', 'someone-else@friends.example')`,
      [cards.id],
    );
    const later = new Date(clock.getTime() + 3 * DAY);
    const sooner = new Date(clock.getTime() + 2 * DAY);
    const first = (
      await client.post(
        '/e-cards',
        card({ toEmail: 'later-list@friends.example', to: 'Lea', sendAt: later.toISOString() }),
      )
    ).body;
    const second = (
      await client.post(
        '/e-cards',
        card({
          toEmail: 'sooner-list@friends.example',
          to: 'Sami',
          sendAt: sooner.toISOString(),
          template: { name: 'thank-you' },
        }),
      )
    ).body;
    await client.post('/e-cards', card({ toEmail: 'sent-now@friends.example' }));
    const [theirs] = await db.query<{ id: string }>(
      `insert into e_cards (tenant_id, user_id, template_name, template_category, from_name, to_name, to_email, message, locale, send_at)
       values ($1, 'someone-else', 'balloons', 'birthday', 'Kim', 'Jo', 'theirs@friends.example', 'Hallo', 'de-DE', $2) returning id`,
      [cards.id, later],
    );

    const listed = await client.get('/e-cards');
    expect(listed.status).toBe(200);
    expect(listed.body.cards).toEqual([
      {
        id: second.id,
        template: { name: 'thank-you', category: 'thanks' },
        to: 'Sami',
        toEmail: 'sooner-list@friends.example',
        sendAt: sooner.toISOString(),
        subscriptionId: null,
      },
      {
        id: first.id,
        template: { name: 'balloons', category: 'birthday' },
        to: 'Lea',
        toEmail: 'later-list@friends.example',
        sendAt: later.toISOString(),
        subscriptionId: null,
      },
    ]);

    // Someone else's card is as unknown as one that does not exist, and stays.
    const foreign = await client.delete(`/e-cards/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(
      (
        await db.query(`select 1 from e_cards where tenant_id = $1 and id = $2 and status = 'scheduled'`, [
          cards.id,
          theirs.id,
        ])
      ).length,
    ).toBe(1);

    expect((await client.delete(`/e-cards/${first.id}`)).status).toBe(204);
    expect((await client.get('/e-cards')).body.cards.map((c: { id: string }) => c.id)).toEqual([second.id]);
    // Due now: the other account's card and the sooner one go out; the cancelled one does not.
    expect(
      await sendDueECards(db, new Date(later.getTime() + DAY), { tenants: [cards], mailFrom: MAIL_FROM }),
    ).toBe(2);
    expect(await outbox.mails('later-list@friends.example')).toHaveLength(0);
    expect(await outbox.mails('sooner-list@friends.example')).toHaveLength(1);
    const types = (
      await db.query<{ type: string }>(
        `select type from account_events where tenant_id = $1 and data->>'eCardId' = $2 order by seq`,
        [cards.id, first.id],
      )
    ).map((e) => e.type);
    expect(types).toEqual(['e_card.scheduled', 'e_card.cancelled']);

    // A card that has gone out can no longer be cancelled; it says so.
    const gone = await client.delete(`/e-cards/${second.id}`);
    expect(gone.status).toBe(409);
    expect(gone.body.error.code).toBe('e_card_already_sent');
  });

  it('refuses anonymous callers and tenants without the feature', async () => {
    const anonymous = browserLikeClient(baseUrl, `/t/${cards.id}/api`);
    await anonymous.get('/subscriptions');
    expect((await anonymous.get('/e-cards')).status).toBe(401);
    expect((await anonymous.delete('/e-cards/any')).status).toBe(401);
    const elsewhere = await signIn(off);
    expect((await elsewhere.get('/e-cards')).body.error.code).toBe('feature_disabled');
    expect((await elsewhere.delete('/e-cards/any')).body.error.code).toBe('feature_disabled');
  });

  it('sends no waiting card of a tenant that has switched e-cards off: it is set aside as failed', async () => {
    await db.query(
      `insert into users (tenant_id, id, email) values ($1, 'was-sender', 'was-sender@friends.example') on conflict do nothing`,
      [off.id],
    );
    const due = new Date(clock.getTime() + DAY);
    const [card] = await db.query<{ id: string }>(
      `insert into e_cards (tenant_id, user_id, template_name, template_category, from_name, to_name, to_email, message, locale, send_at)
       values ($1, 'was-sender', 'balloons', 'birthday', 'Kim', 'Jo', 'switched-off@friends.example', 'Hallo', 'de-DE', $2) returning id`,
      [off.id, due],
    );
    await sendDueECards(db, new Date(due.getTime() + 60_000), { tenants: [cards, off], mailFrom: MAIL_FROM });
    expect(await outbox.mails('switched-off@friends.example')).toHaveLength(0);
    const [row] = await db.query<{ status: string }>(
      `select status from e_cards where tenant_id = $1 and id = $2`,
      [off.id, card.id],
    );
    expect(row.status).toBe('failed');
  });
});

describe('GET /e-card/images/{file}', () => {
  it('serves the images of the tenant’s templates and nothing else', async () => {
    const client = browserLikeClient(baseUrl, `/t/${cards.id}/api`);
    const image = await client.get('/e-card/images/birthday.png');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await client.get('/e-card/images/other.png')).status).toBe(404);
    expect(
      (await browserLikeClient(baseUrl, `/t/${off.id}/api`).get('/e-card/images/birthday.png')).status,
    ).toBe(404);
  });
});

describe('a timed card the order system rejects', () => {
  it('is off the list and never sent', async () => {
    await db.query(`delete from e_cards where tenant_id = $1`, [cards.id]);
    const client = await signIn(cards);
    const at = new Date(clock.getTime() + 2 * DAY);
    const scheduled = await client.post<any>(
      '/e-cards',
      card({ toEmail: 'refused@friends.example', sendAt: at.toISOString() }),
    );
    expect(scheduled.status).toBe(201);
    const [event] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = 'e_card.scheduled' and data->>'eCardId' = $2`,
      [cards.id, scheduled.body.id],
    );
    const answer = await acknowledgeChange(
      { db, now: () => clock, mailFrom: MAIL_FROM },
      cards,
      '00000000-0000-4000-8000-000000000000',
      event.id,
      { status: 'rejected', reason: { 'de-DE': 'Abgelehnt.', 'en-GB': 'Refused.' }, locale: 'de-DE' },
    );
    expect(answer.acknowledgement.undone).toBe(true);
    expect((await client.get<any>('/e-cards')).body.cards).toEqual([]);
    expect(
      await sendDueECards(db, new Date(at.getTime() + DAY), { tenants: [cards], mailFrom: MAIL_FROM }),
    ).toBe(0);
    expect(await outbox.mails('refused@friends.example')).toHaveLength(0);
  });
});
