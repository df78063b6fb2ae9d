/**
 * `/files/{key}` once served anyone holding the key (another user, an anonymous
 * client, a client after log-out). Now a key works once, for 10 minutes, and only with the session
 * of the user who asked for it (server/account/fileRoutes.ts); every refusal is the same 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_KEY_MINUTES } from '../../../server/store/accountStore';
import { startSecurityFixture, type Party, type SecurityFixture } from './securityFixture';

let f: SecurityFixture;
let owner: Party;
let other: Party;
let foreignTenantUser: Party;
let epaper: { id: string; issue: string };

beforeAll(async () => {
  f = await startSecurityFixture();
  const [tenant, second] = f.tenants;
  const logins = f.logins.filter((l) => l.tenantId === tenant.id);
  // The owner: a demo user with a downloadable e-paper issue.
  for (const login of logins) {
    const party = await f.session(tenant, login.email);
    const subscriptions = (
      await f.call({ method: 'GET', path: `${f.api(tenant)}/subscriptions`, token: party.token })
    ).json as Array<{ id: string }>;
    for (const s of subscriptions) {
      const issues =
        (
          await f.call({
            method: 'GET',
            path: `${f.api(tenant)}/subscriptions/${s.id}/delivered-issues`,
            token: party.token,
          })
        ).json?.items ?? [];
      const found = issues.find((i: { downloadStatus: string }) => i.downloadStatus === 'found');
      if (found && !epaper) {
        owner = party;
        epaper = { id: s.id, issue: found.issue };
      }
    }
  }
  other = await f.session(tenant, logins.find((l) => l.email !== owner.email)!.email);
  foreignTenantUser = await f.session(second, f.logins.find((l) => l.tenantId === second.id)!.email);
});

afterAll(async () => f?.close());

async function newKey(party: Party = owner): Promise<{ url: string; key: string }> {
  const answer = await f.call({
    method: 'POST',
    path: `${f.api(f.tenants[0])}/subscriptions/${epaper.id}/delivered-issues/download`,
    token: party.token,
    body: { issue: epaper.issue },
  });
  expect(answer.status).toBe(200);
  return answer.json;
}

const fetchFile = (url: string, token?: string) =>
  f.call({ method: 'GET', path: url, token, headers: { accept: 'application/pdf' } });

describe('download keys', () => {
  it('serve the file once, to the session of the user who asked', async () => {
    const { url } = await newKey();
    const first = await fetchFile(url, owner.token);
    expect(first.status).toBe(200);
    expect(first.text.startsWith('%PDF-')).toBe(true);
    expect(first.headers['cache-control']).toContain('no-store');
    expect((await fetchFile(url, owner.token)).status).toBe(404);
  });

  it('answer 404 to an anonymous client, another user and another tenant, and stay usable for their owner', async () => {
    const { url } = await newKey();
    expect((await fetchFile(url)).status).toBe(404);
    expect((await fetchFile(url, other.token)).status).toBe(404);
    expect((await fetchFile(url, foreignTenantUser.token)).status).toBe(404);
    expect(
      (await fetchFile(url.replace(f.tenants[0].id, f.tenants[1].id), foreignTenantUser.token)).status,
    ).toBe(404);
    expect((await fetchFile(url, owner.token)).status).toBe(200);
  });

  it('answer 404 after the owner logged out', async () => {
    const session = await f.session(f.tenants[0], owner.email);
    const { url } = await newKey(session);
    const logout = await f.call({
      method: 'POST',
      path: `${f.api(f.tenants[0])}/logout`,
      token: session.token,
      body: {},
    });
    expect(logout.status).toBeLessThan(300);
    expect((await fetchFile(url, session.token)).status).toBe(404);
  });

  it(`expire after ${DOWNLOAD_KEY_MINUTES} minutes at most`, async () => {
    expect(DOWNLOAD_KEY_MINUTES).toBeLessThanOrEqual(10);
    const { url } = await newKey();
    const asked = f.clock.now;
    try {
      f.clock.now = new Date(asked.getTime() + (DOWNLOAD_KEY_MINUTES * 60 + 1) * 1000);
      // A fresh session at the later time: only the key is old.
      const later = await f.session(f.tenants[0], owner.email);
      expect((await fetchFile(url, later.token)).status).toBe(404);
    } finally {
      f.clock.now = asked;
    }
  });

  it('give two racing requests of the owner one file', async () => {
    const { url } = await newKey();
    const statuses = (
      await Promise.all([
        fetchFile(url, owner.token),
        fetchFile(url, owner.token),
        fetchFile(url, owner.token),
      ])
    ).map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  });
});
