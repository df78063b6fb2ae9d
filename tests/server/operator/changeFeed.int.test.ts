/**
 * The operator API's change feed: the tenant's account events paged with a stable
 * cursor and filtered by acknowledgement state; confirmations and rejections, idempotent, final
 * (409), scoped; a rejection reaches its subscriber — an e-mail in the chosen language, a
 * change.rejected event, the reason on the subscriber's API in the screen's language — and no one else.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { AuthService } from '../../../server/auth/authService';
import type { Database } from '../../../server/db/database';
import { recordEvent } from '../../../server/events/recordEvent';
import { createUser } from '../../../server/store/userStore';
import type { UserRecord } from '../../../server/store/rows';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { createKey } from '../../../cli/commands/keys';
import type { OperatorChangePage } from '../../../schemas/generated/operator-change-page';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox } from '../../support/outbox';
import { readFileSync as readText } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const tenantOf = (id: string) =>
  makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features: [],
  });
const acme = tenantOf(uniqueTenantId('feed-acme'));
const other = tenantOf(uniqueTenantId('feed-other'));
const outbox = createTestOutbox('portal-feed-outbox-');
let db: Database;
let auth: AuthService;
let baseUrl: string;
let close: () => Promise<void>;
let anna: UserRecord;
let bert: UserRecord;
let reader: string;
let writer: string;
const events: string[] = [];

async function operator<T = any>(route: string, key: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${baseUrl}/t/${acme.id}/operator/v1${route}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The feed shows an event once every transaction older than it has ended (migration 018): wait for it. */
async function pageUntil(route: string, done: (page: OperatorChangePage) => boolean) {
  let page: OperatorChangePage | undefined;
  for (let i = 0; i < 100; i++) {
    const answer = await operator<OperatorChangePage>(route, reader);
    expect(answer.status).toBe(200);
    page = answer.body;
    if (done(page)) return page;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return page!;
}

async function subscriberClient(tenant: ServerTenant, user: UserRecord, language: string) {
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/subscriptions');
  const session = (await auth.startSession(tenant, user, 'dev')) as { accessToken: string };
  client.setAccessToken(session.accessToken);
  return (route: string) => client.get(route, { 'accept-language': language });
}

/** The answer's schema, compiled as strictly as the server compiles request schemas. */
function schemaValidator(name: string) {
  const ajv = new Ajv({ allErrors: true, strict: true });
  const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
    addFormatsModule) as unknown as (a: Ajv) => void;
  addFormats(ajv);
  const schema = JSON.parse(
    readText(new URL(`../../../schemas/api/${name}.schema.json`, import.meta.url), 'utf8'),
  );
  delete schema.$schema;
  return ajv.compile(schema);
}

const attributeChange = (userId: string, value: string) => ({
  userId,
  subscriptionId: '4711',
  orderNumber: '4000000001',
  type: 'DELIVERY_NOTE',
  value,
  previousValue: null,
});

beforeAll(async () => {
  db = await getTestDatabase();
  anna = await createUser(db, acme.id, { email: 'anna@feed.example' });
  bert = await createUser(db, acme.id, { email: 'bert@feed.example' });
  for (let i = 0; i < 5; i++)
    events.push(
      await db.transaction((tx) =>
        recordEvent(
          tx,
          acme.id,
          'order_attribute.changed',
          attributeChange(i === 4 ? bert.id : anna.id, `v${i}`),
        ),
      ),
    );
  await db.transaction((tx) =>
    recordEvent(tx, other.id, 'order_attribute.changed', attributeChange('someone', 'elsewhere')),
  );
  const context = { db, tenantIds: [acme.id, other.id] };
  reader = (await createKey(context, acme.id, { scopes: ['read'] })).secret;
  writer = (await createKey(context, acme.id, { scopes: ['read', 'write'] })).secret;
  const created = createApp({
    db,
    tenants: [acme, other],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
  });
  auth = created.auth;
  ({ baseUrl, close } = await listen(created.app));
});

afterAll(async () => close?.());

describe('paging through the feed', () => {
  it("pages the tenant's changes in order with a stable cursor, never another tenant's", async () => {
    const first = await pageUntil('/changes?limit=2', (page) => page.changes.length === 2 && page.hasMore);
    expect(first.changes.map((c) => c.event.id)).toEqual(events.slice(0, 2));
    expect(first.nextCursor).toBe(first.changes[1].cursor);
    const rest = await pageUntil(
      `/changes?after=${first.nextCursor}&limit=10`,
      (page) => page.changes.length >= 3,
    );
    expect(rest.changes.map((c) => c.event.id)).toEqual(events.slice(2));
    expect(rest.hasMore).toBe(false);
    expect(rest.changes[0]).toMatchObject({
      status: 'pending',
      userId: anna.id,
      subject: { type: 'subscription', id: '4711' },
      event: { tenant: acme.id, type: 'order_attribute.changed', data: { value: 'v2' } },
      acknowledgement: null,
    });
    const validate = schemaValidator('operator-change-page');
    expect(validate(first), JSON.stringify(validate.errors)).toBe(true);
    // An empty page keeps the cursor it was asked with, so a poller can store it and ask again.
    const empty = await operator<OperatorChangePage>(`/changes?after=${rest.nextCursor}`, reader);
    expect(empty.body).toEqual({ changes: [], nextCursor: rest.nextCursor, hasMore: false });
  });

  it('never hands out a change past one whose transaction is still running, so no cursor skips it', async () => {
    const start = await pageUntil('/changes?limit=500', (page) => !page.hasMore);
    let release!: () => void;
    let recorded!: (id: string) => void;
    const slowId = new Promise<string>((resolve) => (recorded = resolve));
    // The slow change draws its seq first and commits last.
    const slow = db.transaction(async (tx) => {
      recorded(await recordEvent(tx, acme.id, 'order_attribute.changed', attributeChange(anna.id, 'slow')));
      await new Promise<void>((resolve) => (release = resolve));
    });
    const slowEvent = await slowId;
    const fast = await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'order_attribute.changed', attributeChange(anna.id, 'fast')),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await operator<OperatorChangePage>(`/changes?after=${start.nextCursor}`, reader);
    expect(during.body.changes.map((c) => c.event.id)).toEqual([]);
    release();
    await slow;
    const after = await pageUntil(`/changes?after=${start.nextCursor}`, (page) => page.changes.length >= 2);
    expect(after.changes.map((c) => c.event.id)).toEqual([slowEvent, fast]);
  });

  it('refuses a cursor of a place the feed has not reached, which would keep every page empty', async () => {
    const ahead = await operator('/changes?after=9999999999999999999.1', reader);
    expect(ahead.status).toBe(400);
    expect(ahead.body.error.details).toEqual([
      { field: 'query/after', message: expect.stringContaining('names a place the feed has not reached') },
    ]);
    // A cursor the feed gave stays good, also the last one, after which nothing has come yet.
    const first = await operator<OperatorChangePage>('/changes?limit=1', reader);
    expect((await operator(`/changes?after=${first.body.nextCursor}`, reader)).status).toBe(200);
  });

  it('refuses a malformed cursor or limit with every problem named', async () => {
    const answer = await operator('/changes?after=12&limit=0&status=maybe', reader);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    expect(answer.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'query/after',
      'query/limit',
      'query/status',
    ]);
    // The allowed values are named, not "one of the allowed values".
    expect(answer.body.error.details.find((d: { field: string }) => d.field === 'query/status').message).toBe(
      'must be one of "pending", "confirmed", "rejected"',
    );
  });
});

describe('acknowledging a change', () => {
  it('confirms once; the same confirmation again answers the stored one, a rejection after it is 409', async () => {
    const url = `/changes/${events[0]}/acknowledgement`;
    const first = await operator(url, writer, { method: 'POST', body: { status: 'confirmed' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ eventId: events[0], status: 'confirmed' });
    const again = await operator(url, writer, { method: 'POST', body: { status: 'confirmed' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const changed = await operator(url, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { 'de-DE': 'Nein', 'en-GB': 'No' } },
    });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatchObject({
      code: 'acknowledgement_conflict',
      details: { acknowledgement: first.body },
    });
  });

  it('filters the feed by acknowledgement state', async () => {
    const confirmed = await pageUntil('/changes?status=confirmed', (page) => page.changes.length > 0);
    expect(confirmed.changes.map((c) => c.event.id)).toEqual([events[0]]);
    expect(confirmed.changes[0].acknowledgement).toMatchObject({ status: 'confirmed' });
    const pending = await pageUntil('/changes?status=pending', (page) => page.changes.length >= 4);
    expect(pending.changes.map((c) => c.event.id)).not.toContain(events[0]);
  });

  it('needs the write scope to acknowledge and the read scope to page', async () => {
    const refused = await operator(`/changes/${events[1]}/acknowledgement`, reader, {
      method: 'POST',
      body: { status: 'confirmed' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', details: { scope: 'write' } });
    const importer = (await createKey({ db, tenantIds: [acme.id] }, acme.id, { scopes: ['import'] })).secret;
    expect((await operator('/changes', importer)).status).toBe(403);
  });

  it("answers 404 for an unknown id or another tenant's change", async () => {
    const unknown = await operator('/changes/not-a-uuid/acknowledgement', writer, {
      method: 'POST',
      body: { status: 'confirmed' },
    });
    expect(unknown.status).toBe(404);
    const [foreign] = await db.query<{ id: string }>(
      `select id::text as id from account_events where tenant_id = $1`,
      [other.id],
    );
    const elsewhere = await operator(`/changes/${foreign.id}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'confirmed' },
    });
    expect(elsewhere.status).toBe(404);
  });

  it('confirms an event that records what happened, and refuses to reject it: it is no change of the subscriber', async () => {
    const eventId = await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'payment.settled', {
        userId: anna.id,
        paymentId: 'pay-feed-1',
        status: 'success',
        amount: 19.96,
        currency: 'EUR',
        subscriptionIds: ['4711'],
      }),
    );
    const url = `/changes/${eventId}/acknowledgement`;
    const rejected = await operator(url, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { 'de-DE': 'Nein.', 'en-GB': 'No.' }, locale: 'de-DE' },
    });
    expect([rejected.status, rejected.body.error.code]).toEqual([409, 'not_a_change']);
    // Nothing told, nothing stored: it can still be confirmed.
    expect(await outbox.mails(anna.email, acme.id)).toHaveLength(0);
    expect((await operator(url, writer, { method: 'POST', body: { status: 'confirmed' } })).status).toBe(201);

    // A portal account opened is the portal's own record: the same.
    const opened = await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'account.created', {
        userId: anna.id,
        email: anna.email,
        source: 'registration',
        bpNumbers: [],
      }),
    );
    const refused = await operator(`/changes/${opened}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { 'de-DE': 'Nein.', 'en-GB': 'No.' } },
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'not_a_change']);
    expect(await outbox.mails(anna.email, acme.id)).toHaveLength(0);
  });

  it('wants a reason in every locale of the tenant, and only those', async () => {
    const answer = await operator(`/changes/${events[1]}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { 'de-DE': 'Nein', 'fr-FR': 'Non' }, locale: 'fr-FR' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      '/reason/en-GB',
      '/reason/fr-FR',
      '/locale',
    ]);
    const noReason = await operator(`/changes/${events[1]}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected' },
    });
    expect(noReason.status).toBe(400);
    // Nothing that turns the text around where the subscriber reads it.
    const turned = await operator(`/changes/${events[1]}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { 'de-DE': 'Siehe \u202Egnp.exe', 'en-GB': 'See\nthe note.' } },
    });
    expect(turned.status).toBe(400);
    expect(turned.body.error.details.map((d: { field: string }) => d.field)).toEqual(['/reason/de-DE']);
  });
});

describe('a rejected change reaches its subscriber', () => {
  const reason = {
    'de-DE': 'Die Lieferhinweise dieser Ausgabe sind schon gedruckt.',
    'en-GB': 'The delivery notes of this issue are already printed.',
  };

  it('mails the subscriber in the chosen language, records change.rejected and shows the reason to them only', async () => {
    const answer = await operator(`/changes/${events[1]}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason, locale: 'en-GB' },
    });
    expect(answer.status).toBe(201);
    // The event was recorded with no change behind it: the rejection has nothing to take back, and
    // says so to the order system and to the subscriber (no "previous details again").
    expect(answer.body).toMatchObject({ status: 'rejected', reason, locale: 'en-GB', undone: false });

    const mails = await outbox.mails(anna.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Your change could not be accepted');
    // The subscription the change was of, by its order number, as on the orders page.
    expect(mails[0].text).toMatch(/Your change of order details for order number \d{10} on/);
    expect(mails[0].text).toContain(reason['en-GB']);
    expect(mails[0].text).not.toContain('previous details');
    expect(await outbox.mails(bert.email)).toHaveLength(0);

    const [recorded] = await db.query<{ user_id: string; data: Record<string, unknown> }>(
      `select user_id, data from account_events where tenant_id = $1 and type = 'change.rejected'`,
      [acme.id],
    );
    expect(recorded.user_id).toBe(anna.id);
    expect(recorded.data).toMatchObject({ eventId: events[1], eventType: 'order_attribute.changed', reason });
    // The portal's own record of the decision is not a subscriber's change: not in the feed.
    const all = await pageUntil('/changes?limit=500', (page) => page.changes.length >= 5);
    expect(all.changes.map((c) => c.event.type)).not.toContain('change.rejected');
    expect(all.changes.find((c) => c.event.id === events[1])?.status).toBe('rejected');

    const german = await subscriberClient(acme, anna, 'de-DE');
    const seen = await german('/rejected-changes');
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual([
      expect.objectContaining({
        eventId: events[1],
        type: 'order_attribute.changed',
        reason: reason['de-DE'],
        undone: false,
        orderNumber: expect.stringMatching(/^[0-9]{10}$/),
      }),
    ]);
    const british = await subscriberClient(acme, anna, 'en-GB');
    expect((await british('/rejected-changes')).body[0].reason).toBe(reason['en-GB']);
    const someoneElse = await subscriberClient(acme, bert, 'de-DE');
    expect((await someoneElse('/rejected-changes')).body).toEqual([]);
  });

  it('writes in the tenant default language without a locale, and the same rejection again is 200', async () => {
    const url = `/changes/${events[4]}/acknowledgement`;
    const first = await operator(url, writer, { method: 'POST', body: { status: 'rejected', reason } });
    expect(first.status).toBe(201);
    expect(first.body.locale).toBe('de-DE');
    const [mail] = await outbox.mails(bert.email);
    expect(mail.subject).toContain('Ihre Änderung konnte nicht übernommen werden');
    expect(mail.text).toContain(reason['de-DE']);
    expect(mail.text).toContain(`Ihr Team von ${acme.name}`);
    const again = await operator(url, writer, { method: 'POST', body: { status: 'rejected', reason } });
    expect(again.status).toBe(200);
    expect(await outbox.mails(bert.email)).toHaveLength(1);
    const otherReason = await operator(url, writer, {
      method: 'POST',
      body: { status: 'rejected', reason: { ...reason, 'en-GB': 'Something else' } },
    });
    expect(otherReason.status).toBe(409);
  });

  it('writes in the language the change was made in when the order system names none, which the feed shows', async () => {
    const made = await db.transaction((tx) =>
      recordEvent(tx, acme.id, 'order_attribute.changed', attributeChange(anna.id, 'english'), {
        locale: 'en-GB',
      }),
    );
    const page = await pageUntil('/changes?limit=500', (p) => p.changes.some((c) => c.event.id === made));
    expect(page.changes.find((c) => c.event.id === made)?.locale).toBe('en-GB');
    // Changes recorded where no screen named a language say so.
    expect(page.changes.find((c) => c.event.id === events[0])?.locale).toBeNull();
    const before = (await outbox.mails(anna.email)).length;
    const answer = await operator(`/changes/${made}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.locale).toBe('en-GB');
    const mails = await outbox.mails(anna.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.subject).toContain('Your change could not be accepted');
    expect(mails.at(-1)!.text).toContain(reason['en-GB']);
    // The same rejection again is the stored one: the language is decided the same way.
    const again = await operator(`/changes/${made}/acknowledgement`, writer, {
      method: 'POST',
      body: { status: 'rejected', reason },
    });
    expect(again.status).toBe(200);
  });

  it('refuses the subscriber notices without a session', async () => {
    const anonymous = browserLikeClient(baseUrl, `/t/${acme.id}/api`);
    expect((await anonymous.get('/rejected-changes')).status).toBe(401);
  });
});
