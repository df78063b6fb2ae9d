/**
 * The tenant's contact script (portal-core.md §2 "Contact": "an optional tenant custom script is
 * injected", `contactForm.customScriptUrl`) was blocked by the page's own Content-Security-Policy,
 * which let scripts come only from the portal: the setting did nothing. The served page's policy now
 * names exactly that file in `script-src` (its full URL, not its origin), only while the contact-form
 * feature is on, and nothing that could end or widen a directive ever reaches the header.
 */
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';
import { createApp } from '../../../server/app';
import { contactScriptSource, pageSecurityPolicy } from '../../../server/http/securityHeaders';
import { createMailer } from '../../../server/mail/mailer';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { listen } from '../../support/apiClient';

const SCRIPT = 'https://chat.acme.example/widget/v2/loader.js';
const HOSTILE = `https://chat.acme.example/w.js; script-src * 'unsafe-inline'; report-uri https://evil.example/`;

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-contact-script-'));
const distDir = path.join(work, 'dist');
let base: ServerTenant;
let baseUrl: string;
let close: () => Promise<void>;

function variant(
  id: string,
  change: (tenant: ServerTenant) => Partial<ServerTenant> = () => ({}),
): ServerTenant {
  return { ...base, id, hosts: [`${id}.test`], ...change(base) };
}

const withScript = (url: string) => (tenant: ServerTenant) => ({
  contactForm: { ...tenant.contactForm, customScriptUrl: url },
});

/** The directives of a policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

beforeAll(async () => {
  [base] = (await loadValidTenants(['stadtkurier'])) as unknown as ServerTenant[];
  expect(base.features).toContain('contact-form');
  const tenants = [
    variant('with-chat', withScript(`${SCRIPT}?key=abc`)),
    variant('no-chat'),
    variant('chat-off', (t) => ({
      ...withScript(SCRIPT)(t),
      features: t.features.filter((f) => f !== 'contact-form'),
    })),
    // Past the validator (which refuses it): the server must still keep it out of the header.
    variant('hostile-chat', withScript(HOSTILE)),
  ];
  for (const tenant of tenants) {
    mkdirSync(path.join(distDir, tenant.id), { recursive: true });
    writeFileSync(
      path.join(distDir, tenant.id, 'index.html'),
      '<!doctype html><html lang="de-DE"><head><base href="%PORTAL_BASE%"><script type="module" src="./assets/index.js"></script></head><body><div id="root"></div></body></html>',
    );
  }
  const { app } = createApp({
    // The page needs no database; nothing here reaches one.
    db: {} as never,
    tenants,
    distDir,
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  rmSync(work, { recursive: true, force: true });
});

async function scriptSources(
  tenantId: string,
  page = 'contact',
): Promise<{ policy: string; sources: string[] }> {
  const answer = await fetch(`${baseUrl}/t/${tenantId}/${page}`, { headers: { accept: 'text/html' } });
  expect(answer.status).toBe(200);
  const policy = answer.headers.get('content-security-policy') ?? '';
  return { policy, sources: directives(policy).get('script-src') ?? [] };
}

describe('the page of a tenant with a contact script', () => {
  it('allows exactly that file in script-src: its full URL without the query, not its origin, nothing inline', async () => {
    for (const page of ['contact', 'orders']) {
      const { policy, sources } = await scriptSources('with-chat', page);
      expect(sources).toEqual(["'self'", SCRIPT]);
      expect(policy).not.toContain('key=abc');
      expect(sources).not.toContain('https://chat.acme.example');
      expect(sources).not.toContain("'unsafe-inline'");
      // The script only: the widget's host gets no connections, frames or anything else.
      const others = [...directives(policy)].filter(([name]) => name !== 'script-src');
      expect(others.flatMap(([, values]) => values).join(' ')).not.toContain('chat.acme.example');
    }
  });

  it('allows no other script when the tenant names none', async () => {
    expect((await scriptSources('no-chat')).sources).toEqual(["'self'"]);
  });

  it('leaves it out while the contact-form feature is off', async () => {
    expect((await scriptSources('chat-off')).sources).toEqual(["'self'"]);
  });

  it('never lets a hostile URL into the header: the policy stays whole and the script stays blocked', async () => {
    const { policy, sources } = await scriptSources('hostile-chat');
    expect(sources).toEqual(["'self'"]);
    expect(policy).not.toContain('chat.acme.example');
    expect(policy).not.toContain('evil.example');
    expect(policy).not.toContain("'unsafe-inline'; report-uri");
    expect([...directives(policy).keys()]).not.toContain('report-uri');
  });
});

describe('a server that also serves the outbox or the development pages', () => {
  it("runs the contact script on the tenant's own host only, never at the origin of /outbox, /studio and /preview", async () => {
    const tenant = variant('with-chat', withScript(SCRIPT));
    const outbox = await listen(
      createApp({
        db: {} as never,
        tenants: [tenant],
        distDir,
        mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
        outboxViewerDir: path.join(work, 'outbox'),
      }).app,
    );
    try {
      // node:http, since fetch does not send a Host of the caller's choosing.
      const sourcesAt = (url: string, host?: string) =>
        new Promise<string[] | undefined>((resolve, reject) => {
          http
            .get(url, { headers: { accept: 'text/html', ...(host ? { host } : {}) } }, (answer) => {
              answer.resume();
              expect(answer.statusCode).toBe(200);
              resolve(directives(String(answer.headers['content-security-policy'] ?? '')).get('script-src'));
            })
            .on('error', reject);
        });
      // /t/<id>/ shares the origin of /outbox, whose sign-in links a script there could read.
      expect(await sourcesAt(`${outbox.baseUrl}/t/with-chat/contact`)).toEqual(["'self'"]);
      // The tenant's own host is an origin of its own.
      expect(await sourcesAt(`${outbox.baseUrl}/contact`, 'with-chat.test')).toEqual(["'self'", SCRIPT]);
    } finally {
      await outbox.close();
    }
    // Without those pages the shared host keeps it (above).
    expect((await scriptSources('with-chat')).sources).toEqual(["'self'", SCRIPT]);
  });
});

describe('contactScriptSource', () => {
  const tenantWith = (url: string) => variant('probe', withScript(url));

  it('is the URL up to its path: host and port as given, percent-encoding kept, query and fragment dropped', () => {
    expect(contactScriptSource(tenantWith('https://Chat.Acme.example:8443/a%20b/w.js?x=1#top'))).toBe(
      'https://chat.acme.example:8443/a%20b/w.js',
    );
  });

  it('refuses what would break, widen or weaken the policy', () => {
    for (const url of [
      'http://chat.acme.example/w.js',
      'javascript:alert(1)',
      'data:text/javascript,alert(1)',
      '//chat.acme.example/w.js',
      'https://chat.acme.example',
      'https://chat.acme.example/',
      'https://chat.acme.example/widgets/',
      'https://chat.acme.example/w.js;script-src',
      'https://chat.acme.example/w.js,x',
      "https://chat.acme.example/w'.js",
      'https://user:secret@chat.acme.example/w.js',
      'https://[::1]/w.js',
      HOSTILE,
      `https://chat.acme.example/w.js\n; script-src *`,
    ]) {
      const source = contactScriptSource(tenantWith(url));
      expect(source, url).toBeUndefined();
      const policy = pageSecurityPolicy(tenantWith(url), '<!doctype html>');
      expect(directives(policy).get('script-src'), url).toEqual(["'self'"]);
    }
  });

  it('encodes a space or a quote the URL parser encodes, so the header holds one source', () => {
    expect(contactScriptSource(tenantWith('https://chat.acme.example/my widget".js'))).toBe(
      'https://chat.acme.example/my%20widget%22.js',
    );
  });
});
