/**
 * `portal keys create|list|revoke` as an operator types them, against a real database
 * through DATABASE_URL and the repository's tenant files: the key is printed once, listings show
 * its prefix only, an unknown tenant is named with the known ones.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import type { Database } from '../../server/db/database';
import { createTestDatabase } from '../support/database';
import { portalCommand } from '../../server/runtime/portalCommand';

let db: Database;
let url: string;

async function portal(...args: string[]) {
  const output: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void output.push(parts.join(' ')));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    await createProgram().parseAsync(['node', 'portal', 'keys', ...args]);
  } finally {
    log.mockRestore();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  return output.join('\n');
}

beforeAll(async () => {
  ({ db, url } = await createTestDatabase());
});

afterAll(async () => db?.close());

describe('portal keys', () => {
  it("says on every run that the database holds nothing yet, until it does: it may not be the server's", async () => {
    const said = async (...args: string[]) => {
      const errors: string[] = [];
      const error = vi
        .spyOn(console, 'error')
        .mockImplementation((...parts) => void errors.push(parts.join(' ')));
      try {
        await portal(...args);
      } finally {
        error.mockRestore();
      }
      return errors;
    };
    // A database of its own: the tests below list this one's keys.
    const own = await createTestDatabase();
    const shared = url;
    url = own.url;
    onTestFinished(async () => {
      url = shared;
      await own.db.close();
    });
    const empty = expect.stringMatching(
      /^database: it holds no accounts, subscriptions or API keys yet\..*PORTAL_DATA_DIR/,
    );
    expect(await said('list', 'technikwelt')).toEqual([
      expect.stringMatching(/^database: DATABASE_URL/),
      empty,
    ]);
    expect(await said('list', 'technikwelt')).toContainEqual(empty);
    // The command to make one as it runs from here, as the revoke hint names it.
    expect(await portal('list', 'technikwelt')).toContain(
      `No API keys for technikwelt: make one with \`${portalCommand()} keys create technikwelt\`.`,
    );
    await portal('create', 'technikwelt', '--scope', 'read', '--name', 'first');
    expect(await said('list', 'technikwelt')).not.toContainEqual(empty);
  });

  it('creates a key, shows it once, lists it by prefix and revokes it', async () => {
    const created = await portal('create', 'technikwelt', '--scope', 'read,write', '--name', 'SAP');
    const secret = /pk_technikwelt_[A-Za-z0-9_-]{43}/.exec(created)?.[0];
    expect(secret).toBeDefined();
    expect(created).toContain('shown only this once');
    const prefix = secret!.slice(0, 'pk_technikwelt_'.length + 8);
    // The revoke command as it runs from here (server/runtime/portalCommand.ts).
    expect(created).toContain(`Revoke it with \`${portalCommand()} keys revoke technikwelt ${prefix}\`.`);

    const listed = await portal('list', 'technikwelt');
    expect(listed).toMatch(new RegExp(`${prefix}\\s+SAP\\s+read,write`));
    expect(listed).not.toContain(secret);

    expect(await portal('revoke', 'technikwelt', prefix)).toContain(`Revoked API key ${prefix}`);
    const json = JSON.parse(await portal('list', 'technikwelt', '--json'));
    expect(json).toEqual([expect.objectContaining({ prefix, name: 'SAP', scopes: ['read', 'write'] })]);
    expect(json[0].revokedAt).not.toBeNull();
  });

  it('revokes by the whole key, and never prints a secret it was given', async () => {
    const created = await portal('create', 'technikwelt', '--scope', 'read', '--name', 'pasted');
    const secret = /pk_technikwelt_[A-Za-z0-9_-]{43}/.exec(created)![0];
    const prefix = secret.slice(0, 'pk_technikwelt_'.length + 8);
    const revoked = await portal('revoke', 'technikwelt', secret);
    expect(revoked).toContain(`Revoked API key ${prefix}`);
    expect(revoked).not.toContain(secret);
    // A whole key that is not one of the tenant's (another tenant's, or a typo): refused, not echoed.
    const wrong = `${secret.slice(0, -3)}xyz`;
    const refusal = await portal('revoke', 'technikwelt', wrong).then(
      () => 'no error',
      (error: Error) => error.message,
    );
    expect(refusal).toContain(`${prefix}…`);
    expect(refusal).not.toContain(wrong);
    const foreign = `pk_stadtkurier_${secret.slice(-43)}`;
    const other = await portal('revoke', 'technikwelt', foreign).then(
      () => 'no error',
      (error: Error) => error.message,
    );
    expect(other).not.toContain(foreign);
  });

  it('names the known tenants for an unknown one, and the scopes for an unknown scope', async () => {
    await expect(portal('create', 'nobody')).rejects.toThrow(/no tenant "nobody".*technikwelt/);
    await expect(portal('create', 'technikwelt', '--scope', 'admin')).rejects.toThrow();
  });
});
