/**
 * `/studio/api` on a real app and database: the validator's problems with pointers,
 * drafts whose preview calls a served tenant's API, a demo user's session, and the save that
 * writes minimal edits and refuses a file with unconfirmed problems.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { createMailer } from '../../server/mail/mailer';
import { seedDemo, SHARED_DEMO_EMAIL } from '../../server/seed';
import { loadTenantFiles, newTenantTemplate } from '../../tenant';
import { TENANT_FILE_MAX_BYTES } from '../../tenant/loadTenants';
import { getTestDatabase, uniqueTenantId } from '../support/database';
import { listen } from '../support/apiClient';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'studio-routes-'));
const id = uniqueTenantId('studio');
const file = path.join(dir, `${id}.json`);
const original = readFileSync(path.join(ROOT, 'tenants', 'technikwelt.json'), 'utf8')
  .replace('"id": "technikwelt"', `"id": "${id}"`)
  .replace('"hosts": ["technikwelt.localhost", "abo.technikwelt.localhost"]', `"hosts": ["${id}.localhost"]`);
writeFileSync(file, original);
// A publisher's tenant as `portal new` writes it: no demo, so nobody to sign in as.
const freshId = uniqueTenantId('studio-new');
const freshFile = path.join(dir, `${freshId}.json`);
writeFileSync(freshFile, newTenantTemplate(freshId));

let baseUrl = '';
let close: (() => Promise<void>) | undefined;
let otherUrl = '';
/** The folders the handed-in studio build was asked to build into. */
const studioBuilds: string[] = [];
let closeOther: (() => Promise<void>) | undefined;

async function call(base: string, method: string, url: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
  };
}
const studio = (method: string, url: string, body?: unknown) => call(baseUrl, method, `/studio${url}`, body);

beforeAll(async () => {
  process.env.PORTAL_TENANTS_DIR = dir;
  const { tenants, issues } = loadTenantFiles([file, freshFile]);
  expect(issues).toEqual([]);
  const db = await getTestDatabase();
  // The commands' seed: demo people for the demo tenant only.
  await seedDemo(db, tenants);
  const mailer = createMailer({ outboxDir: path.join(dir, 'outbox') });
  ({ baseUrl, close } = await listen(
    createApp({
      db,
      tenants,
      distDir: path.join(dir, 'dist'),
      mailer,
      devPages: true,
      // The CLI's Vite build stands in: the server never imports studio/ (docs/architecture.md "Layers").
      buildStudio: async (studioDir) => {
        studioBuilds.push(studioDir);
        mkdirSync(studioDir, { recursive: true });
        writeFileSync(path.join(studioDir, 'index.html'), '<!doctype html><title>Portal studio</title>');
      },
    }).app,
  ));
  ({ baseUrl: otherUrl, close: closeOther } = await listen(
    createApp({ db, tenants, distDir: path.join(dir, 'dist'), mailer }).app,
  ));
});

afterAll(async () => {
  await close?.();
  await closeOther?.();
  // The worker may run other test files next: none of them should edit this temporary folder.
  delete process.env.PORTAL_TENANTS_DIR;
});

const tenantData = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('portal studio API', () => {
  it('answers the problems portal validate reports, with their JSON pointers', async () => {
    const answer = await studio('POST', '/api/validate', {
      fileId: id,
      data: { ...tenantData(), logoTargetUrl: 'www.example.com' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.issues).toEqual([
      expect.objectContaining({
        // The file as it is: PORTAL_TENANTS_DIR names a folder outside the working directory.
        file: path.join(dir, `${id}.json`),
        pointer: '/logoTargetUrl',
        message: expect.stringContaining('does not look like a valid URL'),
      }),
    ]);
  });

  it('names a host another tenant file of the folder has, as portal validate does (the server would not start)', async () => {
    const fresh = JSON.parse(readFileSync(freshFile, 'utf8')) as Record<string, unknown>;
    const answer = await studio('POST', '/api/validate', {
      fileId: freshId,
      data: { ...fresh, hosts: [`${id.toUpperCase()}.localhost`] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.issues).toEqual([
      expect.objectContaining({
        file: freshFile,
        pointer: '/hosts/0',
        message: `host "${id.toUpperCase()}.localhost" is also used by tenant "${id}" (${file})`,
      }),
    ]);
    // The file as it is on disk claims nothing of another's.
    expect((await studio('GET', `/api/tenants/${freshId}`)).body.issues).toEqual([]);
  });

  it('opens a file that starts with a byte-order mark, as portal validate reads it', async () => {
    const bomId = uniqueTenantId('studio-bom');
    const template = newTenantTemplate(bomId).replace(/\n/g, '\r\n');
    writeFileSync(path.join(dir, `${bomId}.json`), `\uFEFF${template}`);
    const opened = await studio('GET', `/api/tenants/${bomId}`);
    expect([opened.status, opened.body.data?.id, opened.body.issues]).toEqual([200, bomId, []]);
    const listed = (await studio('GET', '/api/tenants')).body.files.find(
      (f: { id: string }) => f.id === bomId,
    );
    expect(listed.name).toBe(JSON.parse(template).name);
  });

  it('refuses a file name that is not a tenant id, so nothing outside the tenants folder is read or written', async () => {
    for (const bad of ['..%2F..%2Fpackage', 'UPPER']) {
      const answer = await studio('GET', `/api/tenants/${bad}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_tenant_id');
    }
    expect((await studio('POST', '/api/save', { fileId: '../x', data: {} })).status).toBe(400);
  });

  it('reads and writes no tenant file larger than one can be, as portal validate and the server', async () => {
    writeFileSync(
      path.join(dir, 'huge-file.json'),
      `{"id":"huge-file","pad":"${'x'.repeat(TENANT_FILE_MAX_BYTES)}"}`,
    );
    const read = await studio('GET', '/api/tenants/huge-file');
    expect([read.status, read.body.error.code]).toEqual([400, 'tenant_file_too_large']);
    // Compact, the request fits the studio's limit; written indented, the file would not.
    const before = readFileSync(file, 'utf8');
    const withText = (text: string) => ({ ...tenantData(), texts: { 'de-DE': { 'orders.heading': text } } });
    const padding = TENANT_FILE_MAX_BYTES - JSON.stringify({ fileId: id, data: withText('') }).length - 100;
    const data = withText('x'.repeat(padding));
    let save = await studio('POST', '/api/save', { fileId: id, data });
    if (save.body.error?.code === 'unconfirmed_problems')
      save = await studio('POST', '/api/save', {
        fileId: id,
        data,
        confirmedProblems: save.body.error.details.length,
      });
    expect([save.status, save.body.error.code]).toEqual([400, 'tenant_file_too_large']);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it("previews a valid draft with the served tenant's API and keeps the last valid version while the draft has problems", async () => {
    const draftId = 'draft-0001-abcd';
    const first = await studio('PUT', `/api/drafts/${draftId}`, {
      fileId: id,
      data: { ...tenantData(), name: 'Draft Verlag' },
    });
    expect(first.body).toMatchObject({ version: 1, previewUpToDate: true, apiTenant: id, issues: [] });
    const broken = await studio('PUT', `/api/drafts/${draftId}`, {
      fileId: id,
      data: { ...tenantData(), name: '' },
    });
    expect(broken.body).toMatchObject({ version: 1, previewUpToDate: false });
    expect(broken.body.issues[0].pointer).toBe('/name');
    const faq = await studio('GET', `/preview/${draftId}/api/faq`);
    expect(faq.status).toBe(200);
    const raw = await fetch(`${baseUrl}/studio/preview/${draftId}/api/faq`);
    // The XSRF cookie belongs to the preview's path, where the draft's screens can read it.
    expect(raw.headers.get('set-cookie')).toContain(`Path=/studio/preview/${draftId}/`);
    expect(Array.isArray(faq.body.entries)).toBe(true);
    expect((await studio('GET', '/preview/draft-unknown-1/api/faq')).status).toBe(404);
  });

  it("opens a session of a demo user that the tenant's API accepts", async () => {
    const users = await studio('GET', `/api/demo-users?tenant=${id}`);
    expect(users.body.users.map((u: { email: string }) => u.email)).toContain(SHARED_DEMO_EMAIL);
    const signIn = await studio('POST', '/api/sign-in', { tenant: id, email: SHARED_DEMO_EMAIL });
    expect(signIn.body.storageKey).toBe(`portal.authState.${id}`);
    const response = await fetch(`${baseUrl}/t/${id}/api/subscriptions`, {
      headers: { 'x-auth-token': signIn.body.session.accessToken },
    });
    expect(response.status).toBe(200);
    // Only the tenant's seeded demo logins (docs/operators.md "Operators: the studio").
    const refused = await studio('POST', '/api/sign-in', { tenant: id, email: 'nobody@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('not_a_demo_login');
  });

  it('offers nobody to sign in as on a tenant that is no demo, and says how its data comes in', async () => {
    const users = await studio('GET', `/api/demo-users?tenant=${freshId}`);
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ tenant: freshId, demo: false, users: [] });
    expect(users.body.hint).toContain(`npx portal import ${freshId}`);
    expect(users.body.hint).toContain('operator API');
    expect(users.body.hint).toContain('docs/going-live.md "Going live with your order system"');
    // The commands the studio's bar names reach this server's tenant files, not the checkout's.
    // (DATABASE_URL's placeholder between them where the server runs on one.)
    expect(users.body.command).toMatch(new RegExp(`^PORTAL_TENANTS_DIR=${dir} .*npx portal$`));
    expect(users.body.hint).toContain(`PORTAL_TENANTS_DIR=${dir} `);
    const refused = await studio('POST', '/api/sign-in', { tenant: freshId, email: SHARED_DEMO_EMAIL });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('not_a_demo_tenant');
    expect((await studio('GET', `/api/demo-users?tenant=${id}`)).body.demo).toBe(true);
  });

  it('names a tenant it does not serve as such, never answering with another tenant', async () => {
    for (const answer of [
      await studio('POST', '/api/sign-in', { tenant: 'not-served', email: SHARED_DEMO_EMAIL }),
      await studio('GET', '/api/demo-users?tenant=not-served'),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('tenant_not_served');
      expect(answer.body.error.message).toContain('does not serve "not-served"; it serves ');
      expect(answer.body.error.message).toContain(id);
    }
  });

  it('saves with minimal edits, and a file with problems only when they are confirmed', async () => {
    const diff = await studio('POST', '/api/diff', {
      fileId: id,
      data: { ...tenantData(), name: 'Saved Verlag' },
    });
    expect(diff.body.file).toBe(path.join(dir, `${id}.json`));
    expect(diff.body.diff.filter((line: { kind: string }) => line.kind === '-' || line.kind === '+')).toEqual(
      [
        { kind: '-', text: '  "name": "TechnikWelt Verlagsgruppe",' },
        { kind: '+', text: '  "name": "Saved Verlag",' },
      ],
    );
    const invalid = { ...tenantData(), name: 'Saved Verlag', logoTargetUrl: 'www.example.com' };
    const refused = await studio('POST', '/api/save', { fileId: id, data: invalid });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('unconfirmed_problems');
    expect(readFileSync(file, 'utf8')).toBe(original);

    const saved = await studio('POST', '/api/save', {
      fileId: id,
      data: { ...tenantData(), name: 'Saved Verlag' },
    });
    expect(saved.body).toMatchObject({ saved: true, issues: [] });
    expect(readFileSync(file, 'utf8')).toBe(
      original.replace('"name": "TechnikWelt Verlagsgruppe"', '"name": "Saved Verlag"'),
    );

    const confirmed = await studio('POST', '/api/save', { fileId: id, data: invalid, confirmedProblems: 1 });
    expect(confirmed.body.saved).toBe(true);
    expect(tenantData().logoTargetUrl).toBe('www.example.com');
  });

  it('serves the studio the handed-in build put into <dist>/.studio', async () => {
    const page = await studio('GET', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Portal studio</title>');
    expect(studioBuilds).toEqual([path.join(dir, 'dist', '.studio')]);
  });

  it('is not there without the development pages (portal serve)', async () => {
    const answer = await call(otherUrl, 'GET', '/studio/api/tenants');
    expect(answer.status).toBe(404);
  });
});
