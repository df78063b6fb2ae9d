/**
 * The SSO profile calls (account-flows.md §2 "SSO profile", §4 "SSO delete", §5, §7, §8, §9):
 * password (rules, current password, other sessions end), e-mail change confirmed by the link mailed
 * to the new address (the old one told), account deletion, the tenant's switches, and the user id.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { hashToken, newSecretToken } from '../../../server/auth/tokens';
import { insertSession } from '../../../server/store/authStore';
import { createUser, findUserByEmail, getUserById } from '../../../server/store/userStore';
import type { Database } from '../../../server/db/database';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox } from '../../support/outbox';

const tenantOf = (id: string, locale: 'de-DE' | 'en-GB', settings: Record<string, unknown>): ServerTenant =>
  makeServerTenant({
    id,
    name: `Profile ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: locale,
    locales: ['de-DE', 'en-GB'],
    features: ['sso-profile-page', 'loyalty-programme'],
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: true, sessionIdleMinutes: 30 },
    ssoProfilePage: { editEmail: true, deleteEmail: true },
    ...settings,
  });

const open = tenantOf(uniqueTenantId('profile'), 'de-DE', {});
const locked = tenantOf(uniqueTenantId('profile-locked'), 'en-GB', {
  ssoProfilePage: { editEmail: false, deleteEmail: false },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});
const off = tenantOf(uniqueTenantId('profile-off'), 'en-GB', { features: [] });
const outbox = createTestOutbox('sso-profile-outbox-');
const clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
type Client = ReturnType<typeof browserLikeClient>;

async function clientFor(tenant: ServerTenant, email: string): Promise<Client> {
  const user = (await findUserByEmail(db, tenant.id, email)) ?? (await createUser(db, tenant.id, { email }));
  const token = newSecretToken();
  await insertSession(db, tenant.id, {
    tokenHash: hashToken(token),
    userId: user.id,
    loginSource: 'email',
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/sso-profile/getProfile');
  client.setAccessToken(token);
  return client;
}

const eventTypes = async (tenantId: string, userId: string) =>
  (
    await db.query<{ type: string }>(
      `select type from account_events where tenant_id = $1 and user_id = $2 order by created_at`,
      [tenantId, userId],
    )
  ).map((e) => e.type);

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [open, locked, off], { today: clock });
  const { app } = createApp({
    db,
    tenants: [open, locked, off],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
  });
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

describe('profile', () => {
  it('shows the address, whether a password is set and the tenant switches', async () => {
    const client = await clientFor(open, 'reader@profile.example');
    expect((await client.get('/sso-profile/getProfile')).body).toEqual({
      email: 'reader@profile.example',
      hasPassword: false,
      pendingEmail: null,
      editEmail: true,
      deleteEmail: true,
      passwordLogin: true,
    });
    const lockedClient = await clientFor(locked, 'reader@profile.example');
    expect((await lockedClient.get('/sso-profile/getProfile')).body).toMatchObject({
      editEmail: false,
      deleteEmail: false,
      passwordLogin: false,
    });
  });

  it('answers the user id for the -suid- placeholder under its §7 name', async () => {
    const client = await clientFor(open, 'reader@profile.example');
    const user = await findUserByEmail(db, open.id, 'reader@profile.example');
    expect((await client.get('/sso-profile/getSpektrumUserId')).body).toEqual({ userId: user!.id });
  });
});

describe('password', () => {
  it('sets a first password by the §5 rules, then needs the current one, and ends the other sessions', async () => {
    const email = 'pw@profile.example';
    const client = await clientFor(open, email);
    const otherDevice = await clientFor(open, email);
    for (const newPassword of ['Short1', 'alllowercase1', 'NODIGITSHere', 'Waytoolongpassword123']) {
      const refused = await client.post('/sso-profile/executeUpdatePassword', { newPassword });
      expect([refused.status, refused.body.error.details.fields.newPassword]).toEqual([400, 'invalid']);
    }
    const first = await client.post('/sso-profile/executeUpdatePassword', { newPassword: 'Lesen2026' });
    expect(first.status).toBe(200);
    expect(first.body.message).toMatch(/Passwort wurde geändert/);
    expect((await otherDevice.get('/sso-profile/getProfile')).status).toBe(401);
    expect((await client.get('/sso-profile/getProfile')).body.hasPassword).toBe(true);

    const missing = await client.post('/sso-profile/executeUpdatePassword', { newPassword: 'Schreiben2027' });
    expect(missing.body.error.details.fields).toEqual({ currentPassword: 'required' });
    const wrong = await client.post('/sso-profile/executeUpdatePassword', {
      currentPassword: 'Falsch2026',
      newPassword: 'Schreiben2027',
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([400, 'wrong_password']);
    const changed = await client.post(
      '/sso-profile/executeUpdatePassword',
      { currentPassword: 'Lesen2026', newPassword: 'Schreiben2027' },
      { 'accept-language': 'en-GB' },
    );
    expect(changed.body.message).toMatch(/password has been changed/);
    const login = await browserLikeClient(baseUrl, `/t/${open.id}/api`);
    await login.get('/sso-profile/getProfile');
    expect((await login.post('/login/password', { email, password: 'Schreiben2027' })).status).toBe(200);
    const user = await findUserByEmail(db, open.id, email);
    expect(await eventTypes(open.id, user!.id)).toEqual([
      'sso_profile.password_changed',
      'sso_profile.password_changed',
    ]);
  });

  it('changes the password once for changes made at once with the same current one; the links mailed before sign nobody in', async () => {
    const email = 'race@profile.example';
    const client = await clientFor(open, email);
    expect(
      (await client.post('/sso-profile/executeUpdatePassword', { newPassword: 'Lesen2026' })).status,
    ).toBe(200);
    // A sign-in link asked for before the change, still unopened.
    const visitor = browserLikeClient(baseUrl, `/t/${open.id}/api`);
    await visitor.get('/sso-profile/getProfile');
    expect((await visitor.post('/login/magic-link', { email })).status).toBe(202);
    const [mail] = await outbox.mails(email, open.id);
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('p')!;

    const answers = await Promise.all(
      ['Schreiben1', 'Schreiben2', 'Schreiben3', 'Schreiben4'].map((newPassword) =>
        client.post('/sso-profile/executeUpdatePassword', { currentPassword: 'Lesen2026', newPassword }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400))
      expect(refused.body.error.code).toBe('wrong_password');
    const user = await findUserByEmail(db, open.id, email);
    expect(await eventTypes(open.id, user!.id)).toEqual([
      'sso_profile.password_changed',
      'sso_profile.password_changed',
    ]);
    // Voided, as a spent link is (a link asked for and opened without a change between signs in:
    // signIn.int.test.ts).
    expect((await visitor.post('/login/token', { token })).status).toBe(401);
  });

  it('tells the second of two first passwords set at once that one was set meanwhile', async () => {
    const client = await clientFor(open, 'first-race@profile.example');
    const answers = await Promise.all(
      ['Lesen2026', 'Schreiben2027'].map((newPassword) =>
        client.post('/sso-profile/executeUpdatePassword', { newPassword }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    // No field: the form that set a first password asked for no current one.
    expect(refused.body.error).toMatchObject({ code: 'password_set_meanwhile' });
    expect(refused.body.error.details?.fields).toBeUndefined();
  });

  it('is refused where the tenant has no password sign-in', async () => {
    const client = await clientFor(locked, 'pw@profile.example');
    const refused = await client.post('/sso-profile/executeUpdatePassword', { newPassword: 'Lesen2026' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'feature_disabled']);
  });
});

describe('e-mail change', () => {
  it('counts the new address only once the link mailed to it is opened by the same account; the old address is told', async () => {
    const client = await clientFor(open, 'old@profile.example');
    const tooLong = await client.post('/sso-profile/updateUser', { email: `${'a'.repeat(39)}@example.com` });
    expect(tooLong.body.error.details.fields).toEqual({ email: 'too_long' });
    expect(
      (await client.post('/sso-profile/updateUser', { email: ' OLD@profile.example ' })).body.error.details
        .fields,
    ).toEqual({ email: 'unchanged' });
    expect(
      (await client.post('/sso-profile/updateUser', { email: 'not-an-address' })).body.error.details.fields,
    ).toEqual({ email: 'invalid' });
    // An address the sign-in forms refuse would lock the account out once confirmed: no link is mailed.
    const accented = await client.post('/sso-profile/updateUser', { email: 'zoë@exämple.org' });
    expect(accented.body.error.details.fields).toEqual({ email: 'not_for_sign_in' });
    expect((await client.post('/login/magic-link', { email: 'zoë@exämple.org' })).status).toBe(400);

    const asked = await client.post('/sso-profile/updateUser', { email: ' New@Profile.example ' });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toContain('new@profile.example');
    expect((await client.get('/sso-profile/getProfile')).body).toMatchObject({
      email: 'old@profile.example',
      pendingEmail: 'new@profile.example',
    });
    const [mail] = await outbox.mails('new@profile.example', open.id);
    expect(mail.subject).toMatch(/neue E-Mail-Adresse/);
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(link.pathname).toMatch(/\/sso-profile$/);
    const token = link.searchParams.get('emailToken')!;

    const stranger = await clientFor(open, 'stranger@profile.example');
    expect((await stranger.post('/sso-profile/confirmEmail', { token })).status).toBe(404);
    const confirmed = await client.post('/sso-profile/confirmEmail', { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.email).toBe('new@profile.example');
    expect((await client.get('/sso-profile/getProfile')).body).toMatchObject({
      email: 'new@profile.example',
      pendingEmail: null,
    });
    expect((await client.post('/sso-profile/confirmEmail', { token })).status).toBe(404);
    const notice = await outbox.mails('old@profile.example', open.id);
    expect(notice.map((m) => m.subject)).toEqual([expect.stringMatching(/Anmeldeadresse .* geändert/)]);
    expect(notice[0].text).toContain('n***@profile.example');
    const user = await findUserByEmail(db, open.id, 'new@profile.example');
    expect(await eventTypes(open.id, user!.id)).toEqual([
      'sso_profile.email_change_requested',
      'sso_profile.email_changed',
    ]);
    // The order system learns the new sign-in address (its partners' addresses stay its own).
    const [changed] = await db.query<{ data: Record<string, unknown> }>(
      `select data from account_events where tenant_id = $1 and user_id = $2 and type = 'sso_profile.email_changed'`,
      [open.id, user!.id],
    );
    expect(changed.data).toEqual({ userId: user!.id, email: 'new@profile.example' });
  });

  it('retires the old address: a partner that still has it on record gets no account or link through it', async () => {
    // A subscriber the order system brought in with this address on record, who signed in with it.
    const [partner] = await db.query<{ bpNumber: string }>(
      `select bp_number::text as "bpNumber" from business_partners bp
        where tenant_id = $1 and not exists (select 1 from user_business_partners u
                                              where u.tenant_id = bp.tenant_id and u.bp_number = bp.bp_number)
        order by bp_number limit 1`,
      [open.id],
    );
    await db.query(
      `update business_partners set email_address = 'mover@profile.example' where tenant_id = $1 and bp_number = $2`,
      [open.id, partner.bpNumber],
    );
    const client = await clientFor(open, 'mover@profile.example');
    const mover = (await findUserByEmail(db, open.id, 'mover@profile.example'))!;
    await db.query(`insert into user_business_partners (tenant_id, user_id, bp_number) values ($1, $2, $3)`, [
      open.id,
      mover.id,
      partner.bpNumber,
    ]);
    await client.post('/sso-profile/updateUser', { email: 'moved@profile.example' });
    const [mail] = await outbox.mails('moved@profile.example', open.id);
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('emailToken')!;
    expect((await client.post('/sso-profile/confirmEmail', { token })).status).toBe(200);

    // The old mailbox asks for a sign-in link: the answer is the same, and nothing is sent.
    const before = (await outbox.mails('mover@profile.example', open.id)).length;
    const anonymous = browserLikeClient(baseUrl, `/t/${open.id}/api`);
    await anonymous.get('/sso-profile/getProfile');
    expect((await anonymous.post('/login/magic-link', { email: 'mover@profile.example' })).status).toBe(202);
    expect(await outbox.mails('mover@profile.example', open.id)).toHaveLength(before);
    expect(await findUserByEmail(db, open.id, 'mover@profile.example')).toBeNull();
    const [onRecord] = await db.query<{ address: string | null }>(
      `select address_on_record(tenant_id, bp_number, email_address) as address from business_partners
        where tenant_id = $1 and bp_number = $2`,
      [open.id, partner.bpNumber],
    );
    expect(onRecord.address).toBeNull();

    // Back to the old address: it is the account's own again.
    await client.post('/sso-profile/updateUser', { email: 'mover@profile.example' });
    const [back] = (await outbox.mails('mover@profile.example', open.id)).slice(-1);
    const backToken = new URL(/https?:\/\/\S+/.exec(back.text)![0]).searchParams.get('emailToken')!;
    expect((await client.post('/sso-profile/confirmEmail', { token: backToken })).status).toBe(200);
    const [again] = await db.query<{ address: string | null }>(
      `select address_on_record(tenant_id, bp_number, email_address) as address from business_partners
        where tenant_id = $1 and bp_number = $2`,
      [open.id, partner.bpNumber],
    );
    expect(again.address).toBe('mover@profile.example');
  });

  it('lets the old mailbox take the account back from whoever moved it (a stolen session): address, sessions, password', async () => {
    const owner = await clientFor(open, 'owner@profile.example');
    const thief = await clientFor(open, 'owner@profile.example');
    await thief.post('/sso-profile/updateUser', { email: 'thief@evil.example' });
    const [confirm] = await outbox.mails('thief@evil.example', open.id);
    const token = new URL(/https?:\/\/\S+/.exec(confirm.text)![0]).searchParams.get('emailToken')!;
    expect((await thief.post('/sso-profile/confirmEmail', { token })).status).toBe(200);
    // The thief sets a password at their own mailbox (as a password reset there would).
    const user = (await findUserByEmail(db, open.id, 'thief@evil.example'))!;
    await db.query(`update users set password_hash = 'scrypt$stolen' where tenant_id = $1 and id = $2`, [
      open.id,
      user.id,
    ]);

    // The notice to the old address carries the link that takes the account back, in its language.
    const [notice] = await outbox.mails('owner@profile.example', open.id);
    expect(notice.text).toContain('14 Tagen');
    const undoLink = new URL(/https?:\/\/\S+/.exec(notice.text)![0]);
    expect(undoLink.pathname).toMatch(/\/sso-profile\/undo$/);
    const undoToken = undoLink.searchParams.get('token')!;
    const anonymous = browserLikeClient(baseUrl, `/t/${open.id}/api`);
    await anonymous.get('/sso-profile/getProfile');
    expect((await anonymous.post('/sso-profile/undoEmailChange', { token: 'x'.repeat(43) })).status).toBe(
      404,
    );
    const undone = await anonymous.post<any>('/sso-profile/undoEmailChange', { token: undoToken });
    expect(undone.status).toBe(200);
    expect(undone.body.message).toContain('owner@profile.example');

    const after = (await getUserById(db, open.id, user.id))!;
    expect(after.email).toBe('owner@profile.example');
    expect(after.passwordHash).toBeNull();
    // Every session ends, the thief's and the owner's.
    expect((await thief.get('/sso-profile/getProfile')).status).toBe(401);
    expect((await owner.get('/sso-profile/getProfile')).status).toBe(401);
    // The thief's address signs nobody in; the owner's does, and is the account's own again.
    expect(await findUserByEmail(db, open.id, 'thief@evil.example')).toBeNull();
    const [retired] = await db.query<{ n: number }>(
      `select count(*)::int as n from retired_addresses where tenant_id = $1 and user_id = $2 and email = 'owner@profile.example'`,
      [open.id, user.id],
    );
    expect(retired.n).toBe(0);
    expect((await eventTypes(open.id, user.id)).slice(-1)).toEqual(['sso_profile.email_changed']);
    // Once.
    expect((await anonymous.post('/sso-profile/undoEmailChange', { token: undoToken })).status).toBe(404);
  });

  /** The thief's session moves the account to the address and opens the link mailed there. */
  const moveTo = async (thief: Client, email: string) => {
    await thief.post('/sso-profile/updateUser', { email });
    const [confirm] = await outbox.mails(email, open.id);
    const token = new URL(/https?:\/\/\S+/.exec(confirm.text)![0]).searchParams.get('emailToken')!;
    expect((await thief.post('/sso-profile/confirmEmail', { token })).status).toBe(200);
  };
  /** The undo link's token of the notice mailed to an address the account left. */
  const undoTokenMailedTo = async (email: string) => {
    const [notice] = (await outbox.mails(email, open.id)).filter((m) => /sso-profile\/undo/.test(m.text));
    return new URL(/https?:\/\/\S+/.exec(notice.text)![0]).searchParams.get('token')!;
  };
  const undo = async (token: string) => {
    const anonymous = browserLikeClient(baseUrl, `/t/${open.id}/api`);
    await anonymous.get('/sso-profile/getProfile');
    return (await anonymous.post('/sso-profile/undoEmailChange', { token })).status;
  };
  /** What the undo link's page asks before it offers its button (no session; changes nothing). */
  const undoState = async (token: string) => {
    const anonymous = browserLikeClient(baseUrl, `/t/${open.id}/api`);
    const answer = await anonymous.get(
      `/sso-profile/undoEmailChange/state?token=${encodeURIComponent(token)}`,
    );
    return [answer.status, answer.body];
  };

  it('keeps the account with the mailbox that took it back: the undo links of the later changes are void', async () => {
    const thief = await clientFor(open, 'victim@profile.example');
    const user = (await findUserByEmail(db, open.id, 'victim@profile.example'))!;
    // Two changes in a row: the second one's undo link goes to the thief's first mailbox.
    await moveTo(thief, 'thief-b@evil.example');
    await moveTo(thief, 'thief-c@evil.example');
    const victimsLink = await undoTokenMailedTo('victim@profile.example');
    const thiefsLink = await undoTokenMailedTo('thief-b@evil.example');
    // The page asks first: both links open, and asking spends neither; a made-up one does not.
    expect(await undoState(thiefsLink)).toEqual([200, { open: true }]);
    expect(await undoState(victimsLink)).toEqual([200, { open: true }]);
    expect(await undoState('made-up'.padEnd(43, 'x'))).toEqual([200, { open: false }]);

    expect(await undo(victimsLink)).toBe(200);
    // The voided link's page says so at once, without a button that can only fail.
    expect(await undoState(thiefsLink)).toEqual([200, { open: false }]);
    expect(await undo(thiefsLink)).toBe(404);
    expect((await getUserById(db, open.id, user.id))!.email).toBe('victim@profile.example');
  });

  it('leaves the earlier undo links when a later change is taken back: the first mailbox still can', async () => {
    const thief = await clientFor(open, 'first@profile.example');
    const user = (await findUserByEmail(db, open.id, 'first@profile.example'))!;
    await moveTo(thief, 'second@evil.example');
    await moveTo(thief, 'third@evil.example');
    // The thief takes the later change back to their first mailbox; the owner's link still works.
    expect(await undo(await undoTokenMailedTo('second@evil.example'))).toBe(200);
    expect((await getUserById(db, open.id, user.id))!.email).toBe('second@evil.example');
    expect(await undo(await undoTokenMailedTo('first@profile.example'))).toBe(200);
    expect((await getUserById(db, open.id, user.id))!.email).toBe('first@profile.example');
  });

  it('gives one of two accounts confirming the same address at once the address, the other email_taken', async () => {
    const first = await clientFor(open, 'racer-1@profile.example');
    const second = await clientFor(open, 'racer-2@profile.example');
    const tokens: string[] = [];
    for (const client of [first, second]) {
      await client.post('/sso-profile/updateUser', { email: 'finish@profile.example' });
      const [mail] = (await outbox.mails('finish@profile.example', open.id)).slice(-1);
      const link = /https?:\/\/\S+/.exec(mail.text);
      // The second request mails the address no link if the first confirmed already; here neither has.
      tokens.push(new URL(link![0]).searchParams.get('emailToken')!);
    }
    const answers = await Promise.all([
      first.post<any>('/sso-profile/confirmEmail', { token: tokens[0] }),
      second.post<any>('/sso-profile/confirmEmail', { token: tokens[1] }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.error.code).toBe('email_taken');
  });

  it('answers the same for an address another account uses, and mails that address no link', async () => {
    await clientFor(open, 'taken@profile.example');
    const client = await clientFor(open, 'wants@profile.example');
    const asked = await client.post('/sso-profile/updateUser', { email: 'taken@profile.example' });
    expect(asked.status).toBe(200);
    expect(asked.body.message).toContain('taken@profile.example');
    const mails = await outbox.mails('taken@profile.example', open.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).not.toMatch(/https?:\/\//);
    // The profile read after it tells no more than the answer: pending, as for a free address.
    const profile = (await client.get('/sso-profile/getProfile')).body;
    expect(profile.pendingEmail).toBe('taken@profile.example');
    const free = await clientFor(open, 'wants-too@profile.example');
    await free.post('/sso-profile/updateUser', { email: 'free@profile.example' });
    const freeProfile = (await free.get('/sso-profile/getProfile')).body;
    expect(Object.keys(profile).sort()).toEqual(Object.keys(freeProfile).sort());
    expect(freeProfile.pendingEmail).toBe('free@profile.example');
    expect((await client.get('/sso-profile/getProfile')).body.email).toBe('wants@profile.example');
  });

  it('leaves only the newest link of changes asked for at once, and only its mail goes out', async () => {
    const client = await clientFor(open, 'many@profile.example');
    const asked = await Promise.all(
      [1, 2, 3, 4].map((i) => client.post('/sso-profile/updateUser', { email: `many${i}@profile.example` })),
    );
    expect(asked.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const { pendingEmail } = (await client.get('/sso-profile/getProfile')).body;
    // The mails of the voided links were still waiting in the queue (this test's outbox sends when
    // it is read): they are not sent.
    const mails = [];
    for (const i of [1, 2, 3, 4]) mails.push(...(await outbox.mails(`many${i}@profile.example`, open.id)));
    expect(mails.map((mail) => mail.to)).toEqual([pendingEmail]);
    const token = new URL(/https?:\/\/\S+/.exec(mails[0].text)![0]).searchParams.get('emailToken')!;
    expect((await client.post('/sso-profile/confirmEmail', { token })).status).toBe(200);
  });

  it('leaves the earlier mail unsent whether the newer address has an account or not', async () => {
    await clientFor(open, 'holder@profile.example');
    for (const [i, newer] of ['free-next@profile.example', 'holder@profile.example'].entries()) {
      const client = await clientFor(open, `asker${i}@profile.example`);
      // The first change's mail still waits in the queue (this test's outbox sends when it is read).
      await client.post('/sso-profile/updateUser', { email: `first${i}@profile.example` });
      await client.post('/sso-profile/updateUser', { email: newer });
      // Else whether it arrived would tell whether the newer address has an account.
      expect(await outbox.mails(`first${i}@profile.example`, open.id)).toEqual([]);
    }
  });

  it('mails at most 5 addresses per account and hour', async () => {
    const client = await clientFor(open, 'busy@profile.example');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await client.post('/sso-profile/updateUser', { email: `target${i}@profile.example` })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await outbox.mails('target5@profile.example', open.id)).toHaveLength(0);
  });

  it('is refused where the tenant switches it off', async () => {
    const client = await clientFor(locked, 'old@profile.example');
    const refused = await client.post('/sso-profile/updateUser', { email: 'new@profile.example' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'feature_disabled']);
  });
});

describe('delete account', () => {
  it('needs the typed address, then removes the personal data and ends every session', async () => {
    // The demo login speaks for business partners, is a loyalty member with favourites and claims.
    const client = await clientFor(open, SHARED_DEMO_EMAIL);
    const phone = await clientFor(open, SHARED_DEMO_EMAIL);
    const user = (await findUserByEmail(db, open.id, SHARED_DEMO_EMAIL))!;
    expect((await client.get<any[]>('/subscriptions')).body.length).toBeGreaterThan(0);
    const mismatch = await client.post('/sso-profile/deleteUser', { email: 'someone@else.example' });
    expect(mismatch.body.error.details.fields).toEqual({ email: 'mismatch' });

    const deleted = await client.post('/sso-profile/deleteUser', {
      email: ` ${SHARED_DEMO_EMAIL.toUpperCase()} `,
    });
    expect([deleted.status, deleted.body]).toEqual([200, { message: '' }]);
    expect((await client.get('/sso-profile/getProfile')).status).toBe(401);
    expect((await phone.get('/subscriptions')).status).toBe(401);
    const row = await getUserById(db, open.id, user.id);
    expect(row).toMatchObject({
      email: `deleted-${user.id}@deleted.invalid`,
      displayName: null,
      firstName: null,
      lastName: null,
      passwordHash: null,
      ssoId: null,
    });
    for (const table of [
      'user_business_partners',
      'loyalty_members',
      'loyalty_favorites',
      'loyalty_claims',
    ]) {
      expect(
        await db.query(`select 1 from ${table} where tenant_id = $1 and user_id = $2`, [open.id, user.id]),
        table,
      ).toHaveLength(0);
    }
    expect(
      await db.query(`select 1 from sessions where tenant_id = $1 and user_id = $2`, [open.id, user.id]),
    ).toHaveLength(0);
    // The codes it was given stay taken: never handed out twice.
    expect(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from loyalty_codes where tenant_id = $1 and claimed_at is not null and claimed_by is null`,
          [open.id],
        )
      )[0].n,
    ).toBe(1);
    expect(await findUserByEmail(db, open.id, SHARED_DEMO_EMAIL)).toBeNull();
    expect(await eventTypes(open.id, user.id)).toContain('sso_profile.deleted');
    expect((await outbox.mails(SHARED_DEMO_EMAIL, open.id)).map((m) => m.subject)).toContain(
      `Ihr Konto bei ${open.name} wurde gelöscht`,
    );
  });

  it('is refused where the tenant switches it off, and the whole page where the feature is off', async () => {
    const client = await clientFor(locked, SHARED_DEMO_EMAIL);
    const refused = await client.post('/sso-profile/deleteUser', { email: SHARED_DEMO_EMAIL });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'feature_disabled']);
    expect(await findUserByEmail(db, locked.id, SHARED_DEMO_EMAIL)).not.toBeNull();
    const elsewhere = await clientFor(off, SHARED_DEMO_EMAIL);
    expect((await elsewhere.get('/sso-profile/getProfile')).body.error.code).toBe('feature_disabled');
    expect(
      (
        await browserLikeClient(baseUrl, `/t/${open.id}/api`).post('/sso-profile/deleteUser', {
          email: SHARED_DEMO_EMAIL,
        })
      ).status,
    ).toBe(403);
  });
});
