/**
 * `portal db seed` keeps README "Demo tenants"'s promise as `npm start` does (one seed,
 * one promise): on tenants with password or kicker-account sign-in every demo login has the demo
 * password; on magic-link-only tenants none has a password.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import { loadValidTenants } from '../../cli/commands/loadValidTenants';
import type { Database } from '../../server/db/database';
import { verifyPassword } from '../../server/auth/passwords';
import { buildDemoData, DEMO_PASSWORD, hasPasswordSignIn } from '../../server/seed';
import { createTestDatabase, testDatabaseKind } from '../support/database';

let output: string[];
let database: Database | undefined;
const previousUrl = process.env.DATABASE_URL;

beforeEach(() => {
  output = [];
  vi.spyOn(console, 'log').mockImplementation((...args) => void output.push(args.join(' ')));
});

afterEach(() => vi.restoreAllMocks());

afterAll(async () => {
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  await database?.close();
});

describe(`portal db seed (${testDatabaseKind()})`, () => {
  it("gives the demo logins of password tenants the README's password, and prints it", async () => {
    // A database of its own: the command seeds every demo tenant under its real id.
    const { db, url } = await createTestDatabase();
    database = db;
    process.env.DATABASE_URL = url;
    await createProgram().parseAsync(['node', 'portal', 'db', 'seed']);

    const tenants = await loadValidTenants();
    const withPasswords = tenants.filter(hasPasswordSignIn).map((tenant) => tenant.id);
    expect(withPasswords.length).toBeGreaterThan(0);
    expect(withPasswords.length).toBeLessThan(tenants.length);
    expect(output.join('\n')).toContain(`: ${DEMO_PASSWORD}`);
    for (const tenant of tenants) {
      // The demo logins are a pure function of the tenant (server/seed/demoData.ts).
      const emails = buildDemoData(tenant, new Date()).logins.map((login) => login.email);
      const users = await db.query<{ email: string; password_hash: string | null }>(
        'select email, password_hash from users where tenant_id = $1 and email = any($2)',
        [tenant.id, emails],
      );
      expect(users.length, tenant.id).toBe(emails.length);
      for (const user of users) {
        const hasIt = await verifyPassword(DEMO_PASSWORD, user.password_hash);
        expect(hasIt, `${tenant.id} ${user.email}`).toBe(withPasswords.includes(tenant.id));
      }
    }
  });
});
