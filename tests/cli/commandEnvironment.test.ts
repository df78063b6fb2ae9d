/**
 * A command reaches the server's tenant files and database only with the server's settings
 * (docs/going-live.md "One environment for the server and the commands"): the commands say which
 * database they opened, loudly when it is a new one, and the hints the server prints carry the
 * settings it runs with.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnvironmentFile } from '../../cli/environmentFile';
import { ROOT_DIR } from '../../cli/paths';
import { whichDatabase } from '../../cli/commands/db';
import { workbenchServerOptions } from '../../cli/commands/serverOptions';
import { bringDataInHint } from '../../server/seed';
import { portalCommand } from '../../server/runtime/portalCommand';

const saved = { ...process.env };
afterEach(() => {
  for (const name of [
    'PORTAL_TENANTS_DIR',
    'PORTAL_DATA_DIR',
    'DATABASE_URL',
    'SMTP_URL',
    'METRICS_PORT',
  ] as const)
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

describe('a workbench started with the deployment’s settings', () => {
  it('runs on a database of its own, keeps its mails in its outbox and delivers no webhooks', async () => {
    process.env.PORTAL_DATA_DIR = '/srv/portal/data';
    process.env.DATABASE_URL = 'postgres://portal:s3cret@db.internal/portal';
    process.env.SMTP_URL = 'smtp://mail.internal:587';
    process.env.METRICS_PORT = '9464';
    for (const name of ['dev', 'studio', 'preview'] as const) {
      const options = await workbenchServerOptions(name);
      expect(options).toMatchObject({
        dataDir: `/srv/portal/data/${name}`,
        databaseUrl: undefined,
        smtpUrl: undefined,
        deliverWebhooks: false,
        // The running portal's metrics port: the workbench opens no listener of its own.
        metricsPort: null,
      });
    }
  });
});

describe('the `portal` command the hints name', () => {
  it('is npx portal in the checkout, and the checkout’s own from a deployment’s folder', () => {
    expect(portalCommand(ROOT_DIR)).toBe('npx portal');
    expect(portalCommand(path.join(ROOT_DIR, 'tenants'))).toBe('npx portal');
    const deployment = mkdtempSync(path.join(tmpdir(), 'portal-deployment-'));
    const command = portalCommand(deployment);
    expect(command).toBe(`npx --prefix ${ROOT_DIR} portal`);
    // As printed, it runs there.
    const [npx, ...args] = command.split(' ');
    const run = spawnSync(npx, [...args, '--help'], { cwd: deployment, encoding: 'utf8' });
    expect(run.stdout).toContain('Usage: portal');
  }, 60_000);
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

  it("names a workbench's own database, not the deployment's the process's settings name", () => {
    process.env.PORTAL_DATA_DIR = '/srv/portal/data';
    process.env.DATABASE_URL = 'postgres://portal:s3cret@db.internal/portal';
    const hint = bringDataInHint('harbour', { dataDir: '/srv/portal/data/dev' });
    expect(hint).toContain(
      '`PORTAL_DATA_DIR=/srv/portal/data/dev npx portal import harbour <folder of NDJSON files>`',
    );
    expect(hint).toContain('`PORTAL_DATA_DIR=/srv/portal/data/dev npx portal keys create harbour');
    expect(hint).not.toContain('DATABASE_URL');
    // A server on DATABASE_URL: its commands need that, named, not written out.
    const onUrl = bringDataInHint('harbour', { dataDir: '/srv/portal/data', databaseUrl: 'postgres://x' });
    expect(onUrl).toContain("`DATABASE_URL=<the server's> npx portal import harbour");
  });
});

describe('the settings file the server and the commands share', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-env-'));
  afterEach(() => {
    delete process.env.PORTAL_ENV_FILE;
  });

  it('reads .env of the folder the command runs from; a variable set in the shell wins', () => {
    writeFileSync(
      path.join(dir, '.env'),
      'PORTAL_DATA_DIR=/srv/portal/data\nPORTAL_TENANTS_DIR=/srv/portal/tenants\n',
    );
    process.env.PORTAL_TENANTS_DIR = '/from/the/shell';
    delete process.env.PORTAL_DATA_DIR;
    expect(loadEnvironmentFile(dir)).toBe(path.join(dir, '.env'));
    expect(process.env.PORTAL_DATA_DIR).toBe('/srv/portal/data');
    expect(process.env.PORTAL_TENANTS_DIR).toBe('/from/the/shell');
  });

  it('reads the file PORTAL_ENV_FILE names, none when it is empty, and says so when it is missing', () => {
    writeFileSync(path.join(dir, 'portal.env'), 'PORTAL_DATA_DIR=/srv/other/data\n');
    delete process.env.PORTAL_DATA_DIR;
    process.env.PORTAL_ENV_FILE = 'portal.env';
    expect(loadEnvironmentFile(dir)).toBe(path.join(dir, 'portal.env'));
    expect(process.env.PORTAL_DATA_DIR).toBe('/srv/other/data');
    process.env.PORTAL_ENV_FILE = '';
    expect(loadEnvironmentFile(dir)).toBeNull();
    process.env.PORTAL_ENV_FILE = 'missing.env';
    expect(() => loadEnvironmentFile(dir)).toThrow(
      /PORTAL_ENV_FILE names .*missing\.env, which does not exist/,
    );
    delete process.env.PORTAL_ENV_FILE;
    expect(loadEnvironmentFile(mkdtempSync(path.join(tmpdir(), 'portal-env-none-')))).toBeNull();
  });

  // The commands' folders and defaults are taken as their modules load: the file must be read first.
  it('gives the command its tenants folder, as a variable in the shell would', () => {
    const deployment = mkdtempSync(path.join(tmpdir(), 'portal-env-cli-'));
    mkdirSync(path.join(deployment, 'tenants'));
    copyFileSync(
      path.join(ROOT_DIR, 'tenants', 'stadtkurier.json'),
      path.join(deployment, 'tenants', 'stadtkurier.json'),
    );
    writeFileSync(path.join(deployment, '.env'), `PORTAL_TENANTS_DIR=${path.join(deployment, 'tenants')}\n`);
    const env = { ...process.env };
    delete env.PORTAL_TENANTS_DIR;
    delete env.PORTAL_ENV_FILE;
    const run = spawnSync(process.execPath, [path.join(ROOT_DIR, 'cli', 'bin.mjs'), 'validate'], {
      cwd: deployment,
      env,
      encoding: 'utf8',
    });
    expect(run.stderr).toContain('settings: .env');
    expect(`${run.stdout}${run.stderr}`).toContain('1 tenant file(s) valid');
    expect(run.status).toBe(0);
  }, 60_000);
});
