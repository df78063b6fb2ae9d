/**
 * The anonymous widgets (account-flows.md §2 "Email widget", "Opt-in widget", §3, §5, §7, §8;
 * docs/subscribers.md "E-mail widget", "Opt-in widget"): POST /link-email answers the same whatever matched
 * and mails a link only to the address on record; the link shows the subscription and rewards and
 * records the link and opt-in once. POST /opt-in mails a confirmation; the voucher code comes with
 * the confirmation, once per code even under concurrent confirmations; an exhausted pool, a
 * disabled widget and an unknown provider are refused; both are rate-limited.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { drainMailQueue } from '../../../server/mail/mailSender';
import { seedDemoData } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Database } from '../../../server/db/database';
import { DEMO_VOUCHER_CODES } from '../../../server/seed/entities/widgets';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox } from '../../support/outbox';

const provider = (code: string, voucherCodeKey?: string) => ({
  code,
  ...(voucherCodeKey ? { voucherCodeKey } : {}),
  title: { 'de-DE': `Titel ${code}`, 'en-GB': `Title ${code}` },
  success: { 'de-DE': '<p>Danke!</p>', 'en-GB': '<p>Thanks!</p>' },
  disclaimer: { 'de-DE': '<p>Ich willige ein.</p>', 'en-GB': '<p>I agree.</p>' },
});

function tenant(id: string, features: string[]): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    emailWidget: { successHtml: { 'de-DE': '<p>Danke!</p>', 'en-GB': '<p>Thank you!</p>' } },
    optIns: {
      widget: {
        providers: [
          provider('messe', 'MESSE-2026'),
          provider('sommerfest', 'SOMMERFEST-2026'),
          provider('race', 'RACE-2026'),
        ],
      },
    },
  });
}

const widgets = tenant(uniqueTenantId('widgets'), ['email-widget', 'opt-ins']);
const off = tenant(uniqueTenantId('widgets-off'), []);
const outbox = createTestOutbox('portal-widgets-outbox-');
let clock = new Date();
let baseUrl: string;
let strictUrl: string;
let tightTokensUrl: string;
const closers: Array<() => Promise<void>> = [];
let db: Database;
let known: { orderNumber: string; zipcode: string; email: string; subscriptionId: string };

const tokenOf = (text: string) => new URL(/https?:\/\/\S+/.exec(text)![0]).searchParams.get('token')!;
const client = (t: ServerTenant = widgets, url = baseUrl) => browserLikeClient(url, `/t/${t.id}/api`);
const events = async (type: string) =>
  db.query<{ data: any }>(`select data from account_events where tenant_id = $1 and type = $2 order by seq`, [
    widgets.id,
    type,
  ]);

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [widgets, off], { today: clock });
  const options = {
    db,
    tenants: [widgets, off],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    // Clients told apart by X-Forwarded-For (without it every request is 127.0.0.1's).
    trustProxy: ['loopback'],
  };
  const relaxed = await listen(
    createApp({ ...options, signInLimits: { windowSeconds: 900, perAddress: 1000, perClient: 100_000 } }).app,
  );
  const strict = await listen(
    createApp({ ...options, signInLimits: { windowSeconds: 900, perAddress: 3, perClient: 100_000 } }).app,
  );
  const tightTokens = await listen(
    createApp({ ...options, signInLimits: { windowSeconds: 900, perAddress: 1000, perClient: 3 } }).app,
  );
  baseUrl = relaxed.baseUrl;
  strictUrl = strict.baseUrl;
  tightTokensUrl = tightTokens.baseUrl;
  closers.push(relaxed.close, strict.close, tightTokens.close);
  // A subscription whose goods recipient or ordering party has an address on record.
  [known] = await db.query(
    `select s.order_number::text as "orderNumber", bp.zipcode, bp.email_address as email, s.id as "subscriptionId"
       from subscriptions s join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role in ('AG', 'WE')
       join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
      where s.tenant_id = $1 and bp.email_address is not null and bp.zipcode is not null order by s.id limit 1`,
    [widgets.id],
  );
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('e-mail widget: POST /link-email', () => {
  it('answers the same neutral "check your inbox" whether or not the details match, and mails only the address on record', async () => {
    const c = client();
    await c.get('/subscriptions');
    const match = await c.post('/link-email', {
      email: known.email.toUpperCase(),
      orderNumber: known.orderNumber,
      zipcode: known.zipcode,
      optIn: true,
    });
    const otherEmail = await c.post('/link-email', {
      email: 'stranger@elsewhere.example',
      orderNumber: known.orderNumber,
      zipcode: known.zipcode,
      optIn: true,
    });
    const wrongZip = await c.post('/link-email', {
      email: known.email,
      orderNumber: known.orderNumber,
      zipcode: '00000',
      optIn: false,
    });
    const unknown = await c.post('/link-email', {
      email: known.email,
      orderNumber: '4999999999',
      zipcode: known.zipcode,
    });
    for (const answer of [match, otherEmail, wrongZip, unknown]) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ status: 'check_inbox' });
    }
    expect(await outbox.mails('stranger@elsewhere.example')).toHaveLength(0);
    const sent = await outbox.mails(known.email.toLowerCase());
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe(`Ihre Prämien bei ${widgets.name}`);
    expect(sent[0].text).toContain('/email-widget?token=');
    // Nothing is linked before the link is opened.
    expect(await events('email_widget.linked')).toHaveLength(0);
  });

  it('shows the subscription and the rewards when the link is opened and records the link and the opt-in once', async () => {
    const [mail] = (await outbox.mails(known.email.toLowerCase())).slice(-1);
    const token = tokenOf(mail.text);
    const c = client();
    await c.get('/subscriptions');
    const result = await c.post('/link-email/confirm', { token }, { 'accept-language': 'en-GB' });
    expect(result.status).toBe(200);
    expect(result.body.subscription).toMatchObject({ orderNumber: known.orderNumber });
    expect(result.body.rewards.map((r: { key: string }) => r.key)).toEqual([
      'wallpaper',
      'reading-guide',
      'bookmark',
    ]);
    expect(result.body.rewards[0].description).toBe('Desktop wallpaper');
    expect((await c.post('/link-email/confirm', { token })).status).toBe(200);
    const linked = await events('email_widget.linked');
    expect(linked).toHaveLength(1);
    expect(linked[0].data).toEqual({
      userId: null,
      subscriptionId: known.subscriptionId,
      email: known.email.toLowerCase(),
      optIn: true,
    });
    const file = await c.get(result.body.rewards[0].download);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('image/svg+xml');
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(String(file.body)).toContain(known.orderNumber);
  });

  it('refuses a made-up or expired token and downloads without a valid one', async () => {
    const c = client();
    await c.get('/subscriptions');
    expect((await c.post('/link-email/confirm', { token: 'x'.repeat(43) })).status).toBe(404);
    expect((await c.get(`/link-email/rewards/wallpaper?token=${'x'.repeat(43)}`)).status).toBe(404);
    expect((await c.get('/link-email/rewards/wallpaper')).status).toBe(400);
    const [mail] = (await outbox.mails(known.email.toLowerCase())).slice(-1);
    const saved = clock;
    clock = new Date(clock.getTime() + 49 * 3_600_000);
    try {
      expect((await c.post('/link-email/confirm', { token: tokenOf(mail.text) })).status).toBe(404);
    } finally {
      clock = saved;
    }
  });

  it('does the same work for a match and a miss: the request only queues one job, and the mail sender matches, writes the link and mails it', async () => {
    await drainMailQueue(db, outbox.mailer);
    const queued = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from mail_queue where tenant_id = $1 and state = 'queued'`,
          [widgets.id],
        )
      )[0].n;
    const links = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from email_widget_links where tenant_id = $1`,
          [widgets.id],
        )
      )[0].n;
    const linksBefore = await links();
    const c = client();
    await c.get('/subscriptions');
    expect(
      (
        await c.post('/link-email', {
          email: known.email,
          orderNumber: known.orderNumber,
          zipcode: known.zipcode,
        })
      ).status,
    ).toBe(202);
    // A match: one queued job, no link yet (no facts query, no token, no mail in the request).
    expect(await queued()).toBe(1);
    expect(await links()).toBe(linksBefore);
    expect(
      (
        await c.post('/link-email', {
          email: 'stranger@elsewhere.example',
          orderNumber: known.orderNumber,
          zipcode: known.zipcode,
        })
      ).status,
    ).toBe(202);
    // A miss: the same one row.
    expect(await queued()).toBe(2);
    const jobs = await db.query<{ kind: string; mail: unknown }>(
      `select kind, mail from mail_queue where tenant_id = $1 and state = 'queued'`,
      [widgets.id],
    );
    expect(jobs).toEqual([
      { kind: 'email-widget', mail: null },
      { kind: 'email-widget', mail: null },
    ]);
    const result = await drainMailQueue(db, outbox.mailer);
    expect(result).toMatchObject({ sent: 1, skipped: 1 });
    expect(await links()).toBe(linksBefore + 1);
  });

  it('checks the form: zip at most 10, order number 8 to 10 digits, e-mail required', async () => {
    const c = client();
    await c.get('/subscriptions');
    const answer = await c.post('/link-email', { email: '', orderNumber: '12', zipcode: '12345678901' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    const fields = answer.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['/email', '/orderNumber', '/zipcode']);
    const address = await c.post('/link-email', {
      email: 'no-at-sign',
      orderNumber: known.orderNumber,
      zipcode: known.zipcode,
    });
    expect(address.body.error.details.fields).toEqual({ email: 'invalid' });
  });

  it('is refused when the tenant has no e-mail widget', async () => {
    const c = client(off);
    await c.get('/subscriptions');
    const answer = await c.post('/link-email', {
      email: known.email,
      orderNumber: known.orderNumber,
      zipcode: known.zipcode,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('feature_disabled');
  });

  it('is rate-limited per order number and client like the anonymous sign-ins', async () => {
    const c = client(widgets, strictUrl);
    await c.get('/subscriptions');
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await c.post('/link-email', {
            email: `probe${i}@x.example`,
            orderNumber: '4111111111',
            zipcode: '12345',
          })
        ).status,
      );
    expect(statuses.slice(0, 3)).toEqual([202, 202, 202]);
    expect(statuses[3]).toBe(429);
  });

  it("lets a stranger spend only their own budget, and mails one address on record at most the budget's links, whoever asks", async () => {
    const [other] = await db.query<{ orderNumber: string; zipcode: string; email: string }>(
      `select s.order_number::text as "orderNumber", bp.zipcode, bp.email_address as email
         from subscriptions s join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role in ('AG', 'WE')
         join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
        where s.tenant_id = $1 and bp.email_address is not null and bp.zipcode is not null
          and lower(bp.email_address) <> lower($2) and s.order_status = 'A'
        order by s.id desc limit 1`,
      [widgets.id, known.email],
    );
    const c = client(widgets, strictUrl);
    await c.get('/subscriptions');
    const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
    // Someone who read the order number on a label, with made-up addresses and zip codes.
    const junk = [];
    for (let i = 0; i < 4; i++)
      junk.push(
        (
          await c.post(
            '/link-email',
            { email: `junk${i}@x.example`, orderNumber: other.orderNumber, zipcode: '99999' },
            from(1),
          )
        ).status,
      );
    expect(junk).toEqual([202, 202, 202, 429]);
    // The owner, on another line, is not refused; five requests from five lines mail three links
    // (the strict server's per-address budget), then nothing more in the window.
    const mailbox = other.email.toLowerCase();
    const before = (await outbox.mails(mailbox)).length;
    const owner = { email: other.email, orderNumber: other.orderNumber, zipcode: other.zipcode };
    for (let n = 2; n <= 6; n++) expect((await c.post('/link-email', owner, from(n))).status).toBe(202);
    expect((await outbox.mails(mailbox)).length - before).toBe(3);
  });
});

const optInSignUp = {
  salutationCode: '0001',
  firstName: 'Mia',
  lastName1: 'Muster',
  optIn: true,
  provider: 'messe',
};

describe('opt-in widget: POST /opt-in', () => {
  const signUp = (c: ReturnType<typeof client>, email: string, extra: Record<string, unknown> = {}) =>
    c.post('/opt-in', {
      salutationCode: '0001',
      firstName: 'Mia',
      lastName1: 'Muster',
      email,
      optIn: true,
      provider: 'messe',
      ...extra,
    });

  it('mails a confirmation link and hands the voucher code out only on confirmation, once per mailbox', async () => {
    const c = client();
    await c.get('/subscriptions');
    const answer = await signUp(c, 'Mia@Example.org ');
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ status: 'confirmation_sent' });
    const [confirmMail] = await outbox.mails('mia@example.org');
    expect(confirmMail.subject).toBe(`Bitte bestätigen Sie Ihre Anmeldung – ${widgets.name}`);
    expect(confirmMail.text).toContain('/opt-in-widget?provider=messe&token=');
    expect(await events('opt_in_widget.signed_up')).toHaveLength(1);
    const confirmed = await c.post('/opt-in/confirm', { token: tokenOf(confirmMail.text) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ provider: 'messe', voucherCode: expect.stringMatching(/^MESSE-2026-/) });
    const code = confirmed.body.voucherCode;
    // Opened again: the same code, no second one.
    expect((await c.post('/opt-in/confirm', { token: tokenOf(confirmMail.text) })).body.voucherCode).toBe(
      code,
    );
    const voucherMail = (await outbox.mails('mia@example.org')).find((m) =>
      m.subject.startsWith('Ihr Gutscheincode'),
    );
    expect(voucherMail?.text).toContain(code);
    // A second sign-up of the same address gets the same code.
    await signUp(c, 'mia@example.org');
    const second = (await outbox.mails('mia@example.org'))
      .filter((m) => m.subject.startsWith('Bitte bestätigen'))
      .at(-1)!;
    expect((await c.post('/opt-in/confirm', { token: tokenOf(second.text) })).body.voucherCode).toBe(code);
    // So does a +tag of it: the mail reaches the same mailbox.
    await signUp(c, 'Mia+Messe@example.org');
    const tagged = (await outbox.mails('mia+messe@example.org')).at(-1)!;
    expect((await c.post('/opt-in/confirm', { token: tokenOf(tagged.text) })).body.voucherCode).toBe(code);
    // And again when its link is opened a second time.
    expect((await c.post('/opt-in/confirm', { token: tokenOf(tagged.text) })).body.voucherCode).toBe(code);
    // Gmail ignores dots and answers to googlemail.com too: one inbox, one code.
    await signUp(c, 'Mia.Muster@gmail.com');
    const gmail = (await outbox.mails('mia.muster@gmail.com')).at(-1)!;
    const gmailCode = (await c.post('/opt-in/confirm', { token: tokenOf(gmail.text) })).body.voucherCode;
    expect(gmailCode).toMatch(/^MESSE-2026-/);
    expect(gmailCode).not.toBe(code);
    await signUp(c, 'm.i.a.muster@googlemail.com');
    const dotted = (await outbox.mails('m.i.a.muster@googlemail.com')).at(-1)!;
    expect((await c.post('/opt-in/confirm', { token: tokenOf(dotted.text) })).body.voucherCode).toBe(
      gmailCode,
    );
    const claimed = await db.query<{ n: number }>(
      `select count(*)::int as n from widget_voucher_codes where tenant_id = $1 and pool = 'MESSE-2026' and claimed_at is not null`,
      [widgets.id],
    );
    expect(claimed[0].n).toBe(2);
    const confirmedEvents = await events('opt_in_widget.confirmed');
    expect(confirmedEvents[0].data).toMatchObject({
      provider: 'messe',
      email: 'mia@example.org',
      voucherCode: code,
      firstName: 'Mia',
      lastName1: 'Muster',
    });
  });

  it('never hands one code out twice when many sign-ups confirm at the same moment, and says when the codes run out', async () => {
    // Leave 5 codes in the race pool; 8 people confirm at once.
    await db.query(
      `delete from widget_voucher_codes where tenant_id = $1 and pool = 'RACE-2026' and code not in (select code from widget_voucher_codes where tenant_id = $1 and pool = 'RACE-2026' order by code limit 5)`,
      [widgets.id],
    );
    const c = client();
    await c.get('/subscriptions');
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) {
      expect((await signUp(c, `racer${i}@example.org`, { provider: 'race' })).status).toBe(202);
      tokens.push(tokenOf((await outbox.mails(`racer${i}@example.org`))[0].text));
    }
    const answers = await Promise.all(tokens.map((token) => c.post('/opt-in/confirm', { token })));
    const codes = answers.filter((a) => a.status === 200).map((a) => a.body.voucherCode);
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.error.code])).toEqual(
      Array(3).fill([409, 'voucher_codes_exhausted']),
    );
    // Now the pool is empty: a new sign-up is told at once (§8 "voucher codes exhausted: contact phone support").
    const late = await signUp(c, 'late@example.org', { provider: 'race' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('voucher_codes_exhausted');
    // …and the page can say so before anyone types.
    const pool = await c.get('/opt-in/providers/race');
    expect([pool.status, pool.body]).toEqual([200, { provider: 'race', codesLeft: false }]);
  });

  it('refuses the exhausted demo provider, an unknown provider and a tenant without opt-ins', async () => {
    const c = client();
    await c.get('/subscriptions');
    expect(DEMO_VOUCHER_CODES).toBeGreaterThan(0);
    const exhausted = await signUp(c, 'summer@example.org', { provider: 'sommerfest' });
    expect([exhausted.status, exhausted.body.error.code]).toEqual([409, 'voucher_codes_exhausted']);
    const unknown = await signUp(c, 'who@example.org', { provider: 'nobody' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'provider_not_found']);
    // What the page asks before the form: the same answers, nothing personal.
    expect((await c.get('/opt-in/providers/sommerfest')).body).toEqual({
      provider: 'sommerfest',
      codesLeft: false,
    });
    expect((await c.get('/opt-in/providers/messe')).body).toEqual({ provider: 'messe', codesLeft: true });
    const unknownPool = await c.get('/opt-in/providers/nobody');
    expect([unknownPool.status, unknownPool.body.error.code]).toEqual([404, 'provider_not_found']);
    const o = client(off);
    await o.get('/subscriptions');
    const disabled = await signUp(o, 'who@example.org');
    expect([disabled.status, disabled.body.error.code]).toEqual([403, 'feature_disabled']);
    expect((await o.get('/opt-in/providers/messe')).status).toBe(403);
    expect(await outbox.mails('summer@example.org')).toHaveLength(0);
  });

  it('checks the form: names at most 35, consent and a valid address required, a known salutation', async () => {
    const c = client();
    await c.get('/subscriptions');
    const long = await signUp(c, 'long@example.org', { firstName: 'x'.repeat(36) });
    expect(long.status).toBe(400);
    const noConsent = await signUp(c, 'consent@example.org', { optIn: false, lastName1: ' ' });
    expect(noConsent.body.error.details.fields).toEqual({ lastName1: 'required', optIn: 'required' });
    const badAddress = await signUp(c, 'nope');
    expect(badAddress.body.error.details.fields).toEqual({ email: 'invalid' });
    // What a mail library would deliver to another mailbox is not one address: a voucher per variant
    // would otherwise reach one inbox (account-flows.md §5 "Opt-in widget").
    for (const shape of ['one<farm@evil.example>', 'victim,farm@evil.example']) {
      const answer = await signUp(c, shape);
      expect([answer.status, answer.body.error.details.fields]).toEqual([400, { email: 'invalid' }]);
    }
    expect((await c.post('/opt-in/confirm', { token: 'y'.repeat(43) })).status).toBe(404);
  });

  it('is rate-limited per address and client; the mailbox is capped, and its owner still gets a login link', async () => {
    const c = client(widgets, strictUrl);
    await c.get('/subscriptions');
    const owner = 'flood@example.org';
    const from = (n: number) => ({ 'x-forwarded-for': `198.51.100.${n}` });
    // Refused sign-ups mail nothing and take no place.
    for (let i = 0; i < 5; i++) expect((await signUp(c, owner, { provider: 'nobody' })).status).toBe(404);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await c.post('/opt-in', { ...optInSignUp, email: owner }, from(70))).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    // Other clients are answered, but the mailbox gets no more than its budget of such mails.
    for (let n = 71; n < 74; n++)
      expect((await c.post('/opt-in', { ...optInSignUp, email: owner }, from(n))).status).toBe(202);
    expect(await outbox.mails(owner)).toHaveLength(3);
    // The sign-ups spent nothing of the budget the owner's login link draws on.
    expect((await c.post('/login/magic-link', { email: owner }, from(75))).status).toBe(202);
  });
});

describe("the widgets' mailed links count refused tokens against the client, as the sign-in links do", () => {
  it('stops wrong tokens with a wait, and still opens a genuine link from the same client address', async () => {
    const c = client(widgets, tightTokensUrl);
    await c.get('/subscriptions');
    // A fresh link of each widget, asked for from another address.
    const asker = { 'x-forwarded-for': '203.0.113.80' };
    expect(
      (
        await c.post(
          '/link-email',
          { email: known.email, orderNumber: known.orderNumber, zipcode: known.zipcode },
          asker,
        )
      ).status,
    ).toBe(202);
    await drainMailQueue(db, outbox.mailer);
    const linkMail = (await outbox.mails(known.email.toLowerCase())).at(-1)!;
    expect((await c.post('/opt-in', { ...optInSignUp, email: 'nat@example.org' }, asker)).status).toBe(202);
    const optInMail = (await outbox.mails('nat@example.org')).at(-1)!;

    // One address behind a shared NAT: a guesser spends its budget of three refused tokens.
    const shared = { 'x-forwarded-for': '203.0.113.81' };
    const wrong = (i: number) => `wrong-${i}`.padEnd(43, 'x');
    expect((await c.post('/link-email/confirm', { token: wrong(0) }, shared)).status).toBe(404);
    expect((await c.get(`/link-email/rewards/wallpaper?token=${wrong(1)}`, shared)).status).toBe(404);
    expect((await c.post('/opt-in/confirm', { token: wrong(2) }, shared)).status).toBe(404);
    for (const over of [
      await c.post<any>('/link-email/confirm', { token: wrong(3) }, shared),
      await c.get<any>(`/link-email/rewards/wallpaper?token=${wrong(4)}`, shared),
      await c.post<any>('/opt-in/confirm', { token: wrong(5) }, shared),
    ]) {
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(over.body.error.message).toMatch(/try again in \d+ minutes?\./);
    }
    // The owners behind the same address open what the portal mailed them.
    expect((await c.post('/link-email/confirm', { token: tokenOf(linkMail.text) }, shared)).status).toBe(200);
    const reward = await c.get(`/link-email/rewards/wallpaper?token=${tokenOf(linkMail.text)}`, shared);
    expect(reward.status).toBe(200);
    const confirmed = await c.post<any>('/opt-in/confirm', { token: tokenOf(optInMail.text) }, shared);
    expect([confirmed.status, confirmed.body.provider]).toEqual([200, 'messe']);
    // Another client is not held up.
    const other = { 'x-forwarded-for': '203.0.113.82' };
    expect((await c.post('/opt-in/confirm', { token: wrong(6) }, other)).status).toBe(404);
  });
});
