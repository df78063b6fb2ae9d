/**
 * A command reaches the server's tenant files and database only with the server's settings
 * (docs/going-live.md "One environment for the server and the commands"): the commands say which
 * database they opened, loudly when it is a new one, and the hints the server prints carry the
 * settings it runs with.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { whichDatabase } from '../../cli/commands/db';
import { bringDataInHint } from '../../server/seed';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['PORTAL_TENANTS_DIR', 'PORTAL_DATA_DIR', 'DATABASE_URL'] as const)
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe('the database a command opens', () => {
  it('names it, without the connection string’s user or password', () => {
    expect(
      whichDatabase({
        url: 'postgres://portal:s3cret@db.internal:5432/portal',
        dataDir: 'data',
        exists: false,
      }),
    ).toBe('database: DATABASE_URL (db.internal/portal)');
    expect(whichDatabase({ dataDir: '/srv/portal/data', exists: true })).toBe(
      'database: the embedded PostgreSQL in /srv/portal/data',
    );
  });

  it('says when the embedded one is new and empty: a typo in PORTAL_DATA_DIR, or none given', () => {
    expect(whichDatabase({ dataDir: '/srv/portal/dta', exists: false })).toMatch(
      /^database: a new, empty embedded PostgreSQL in \/srv\/portal\/dta: .*PORTAL_DATA_DIR/,
    );
  });
});

describe("the server's hint for a tenant without demo data", () => {
  it('gives the commands with the settings the server runs with', () => {
    process.env.PORTAL_TENANTS_DIR = '/srv/portal/tenants';
    process.env.PORTAL_DATA_DIR = '/srv/portal/data';
    process.env.DATABASE_URL = 'postgres://portal:s3cret@db.internal/portal';
    const hint = bringDataInHint('harbour');
    expect(hint).toContain(
      "`PORTAL_TENANTS_DIR=/srv/portal/tenants PORTAL_DATA_DIR=/srv/portal/data DATABASE_URL=<the server's> npx portal import harbour <folder of NDJSON files>`",
    );
    expect(hint).not.toContain('s3cret');
    delete process.env.PORTAL_TENANTS_DIR;
    delete process.env.PORTAL_DATA_DIR;
    delete process.env.DATABASE_URL;
    expect(bringDataInHint('harbour')).toContain(
      '`npx portal keys create harbour --scope read,write,import`',
    );
  });
});
