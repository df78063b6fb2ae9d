import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Database } from '../../server/db/database';
import type { OperatorKeyRow, OperatorScope } from '../../server/store/operatorKeyStore';
import { TENANTS_DIR } from '../paths';
import { portalCommand } from '../../server/runtime/portalCommand';

const SCOPES: readonly OperatorScope[] = ['read', 'write', 'import'];

/** `--scope read,write`: known scopes, at least one, each once. */
export function parseScopes(value: string): OperatorScope[] {
  const scopes = value
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length)
    throw new InvalidArgumentError(
      `unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}: write one or more of ${SCOPES.join(', ')}, separated by commas (e.g. --scope read,write)`,
    );
  if (scopes.length === 0) throw new InvalidArgumentError(`write one or more of ${SCOPES.join(', ')}`);
  return [...new Set(scopes)] as OperatorScope[];
}

/** What the key commands work on: the database and the tenants a key may be made for. */
export interface KeysContext {
  db: Database;
  /** Ids of the valid tenants. */
  tenantIds: readonly string[];
  now?: () => Date;
}

function requireTenant(context: KeysContext, tenantId: string): void {
  if (context.tenantIds.includes(tenantId)) return;
  throw new Error(
    `no valid tenant "${tenantId}": keys are made for the tenants of tenants/*.json (${context.tenantIds.join(', ') || 'none'}); check its id with \`portal validate\``,
  );
}

/** `portal keys create`: makes a key and answers the text that shows it, once. */
export async function createKey(
  context: KeysContext,
  tenantId: string,
  options: { scopes: readonly OperatorScope[]; name?: string },
): Promise<{ key: OperatorKeyRow; secret: string; text: string }> {
  requireTenant(context, tenantId);
  const { createOperatorKey } = await import('../../server/operator/keys/operatorKeys');
  const now = (context.now ?? (() => new Date()))();
  const name = options.name?.trim() || `key of ${now.toISOString().slice(0, 10)}`;
  const { key, secret } = await createOperatorKey(context.db, tenantId, {
    name,
    scopes: options.scopes,
    now,
  });
  const text = [
    `API key "${key.name}" for ${tenantId} (scopes ${key.scopes.join(', ')}), id ${key.id}:`,
    '',
    `  ${secret}`,
    '',
    'It is shown only this once: store it in your order system now. The portal keeps only its hash;',
    `listings show its prefix ${key.prefix}. Revoke it with \`${portalCommand()} keys revoke ${tenantId} ${key.prefix}\`.`,
  ].join('\n');
  return { key, secret, text };
}

const time = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` : '–');

/** The listing of `portal keys list`: never the key, only its prefix. */
export function formatKeys(tenantId: string, keys: readonly OperatorKeyRow[]): string {
  if (keys.length === 0)
    return `No API keys for ${tenantId}: make one with \`${portalCommand()} keys create ${tenantId}\`.`;
  const rows = [
    ['prefix', 'name', 'scopes', 'created', 'last used', 'revoked', 'id'],
    ...keys.map((key) => [
      key.prefix,
      key.name,
      key.scopes.join(','),
      time(key.createdAt),
      time(key.lastUsedAt),
      time(key.revokedAt),
      key.id,
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function listKeys(context: KeysContext, tenantId: string): Promise<OperatorKeyRow[]> {
  requireTenant(context, tenantId);
  const { listOperatorKeys } = await import('../../server/store/operatorKeyStore');
  return listOperatorKeys(context.db, tenantId);
}

/**
 * `portal keys revoke`: by id, by prefix (a prefix that fits several keys revokes none), or by the
 * whole key, which an operator who lost track of the prefix may paste. No answer ever repeats more
 * of the argument than a key's prefix: a whole key in an error message would land in terminals,
 * shell histories of CI logs and tickets.
 */
export async function revokeKey(
  context: KeysContext,
  tenantId: string,
  idPrefixOrKey: string,
): Promise<{ key: OperatorKeyRow; text: string }> {
  requireTenant(context, tenantId);
  const { findOperatorKeyByHash, revokeOperatorKey } = await import('../../server/store/operatorKeyStore');
  const { hashToken } = await import('../../server/auth/tokens');
  const { keyPrefixOf } = await import('../../server/operator/keys/operatorKeys');
  const now = (context.now ?? (() => new Date()))();
  const prefix = keyPrefixOf(tenantId, idPrefixOrKey);
  // Longer than a prefix and shaped like a key (of this tenant or another): treated as a secret.
  const wholeKey = idPrefixOrKey.startsWith('pk_') && idPrefixOrKey.length > prefix.length;
  let matches: OperatorKeyRow[];
  if (wholeKey) {
    const found = await findOperatorKeyByHash(context.db, hashToken(idPrefixOrKey));
    matches =
      found && found.tenantId === tenantId
        ? await revokeOperatorKey(context.db, tenantId, found.id, now)
        : [];
  } else matches = await revokeOperatorKey(context.db, tenantId, idPrefixOrKey, now);
  const named = wholeKey ? `${prefix}…` : idPrefixOrKey;
  if (matches.length === 0)
    throw new Error(
      `${tenantId} has no API key ${wholeKey ? 'that is' : 'with the id or prefix'} "${named}": \`portal keys list ${tenantId}\` shows them`,
    );
  if (matches.length > 1)
    throw new Error(
      `"${named}" fits ${matches.length} keys of ${tenantId} (${matches.map((k) => k.prefix).join(', ')}): write the whole prefix or the id; nothing was revoked`,
    );
  const key = matches[0];
  const already = key.revokedAt !== null && new Date(key.revokedAt).getTime() < now.getTime();
  return {
    key,
    text: already
      ? `API key ${key.prefix} ("${key.name}") of ${tenantId} was already revoked on ${time(key.revokedAt)}.`
      : `Revoked API key ${key.prefix} ("${key.name}") of ${tenantId}: calls with it now answer 401.`,
  };
}

/** The valid tenants' ids: a tenant whose file has problems gets no keys until `portal validate` passes. */
async function validTenantIds(tenantId: string): Promise<string[]> {
  if (!existsSync(path.join(TENANTS_DIR, `${tenantId}.json`))) {
    const { readdirSync } = await import('node:fs');
    const { displayPath } = await import('../../tenant/sources');
    const { didYouMean } = await import('../../tenant/didYouMean');
    const known = readdirSync(TENANTS_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length));
    throw new Error(
      `no tenant "${tenantId}": ${displayPath(path.join(TENANTS_DIR, `${tenantId}.json`))} does not exist${didYouMean(tenantId, known)} (tenants: ${known.join(', ')})` +
        (process.env.PORTAL_TENANTS_DIR
          ? ''
          : "; a server with its tenant files elsewhere was started with PORTAL_TENANTS_DIR: run the command with the server's PORTAL_TENANTS_DIR and PORTAL_DATA_DIR (or DATABASE_URL)"),
    );
  }
  const { loadValidTenants } = await import('./loadValidTenants');
  return (await loadValidTenants([tenantId])).map((tenant) => tenant.id);
}

async function withKeysContext(tenantId: string, fn: (context: KeysContext) => Promise<void>): Promise<void> {
  const tenantIds = await validTenantIds(tenantId);
  const { withDatabase } = await import('./db');
  const { migrate } = await import('../../server/db/migrate');
  await withDatabase(async (db) => {
    // A key can be made before the server first started on this database.
    await migrate(db);
    await fn({ db, tenantIds });
  });
}

/** `portal keys create|list|revoke <tenant>`: the operator API's keys. */
export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description(
      "API keys of a tenant's operator API, /t/<tenant>/operator/v1 (DATABASE_URL, or the embedded PostgreSQL under data/)",
    );
  keys
    .command('create <tenant>')
    .description('make an API key and show it once (the portal keeps only its hash)')
    .option('--scope <scopes>', 'read, write, import, separated by commas (default: read)', parseScopes)
    .option('--name <name>', 'what the key is for, shown in listings (default: "key of <date>")')
    .action(async (tenantId: string, options: { scope?: OperatorScope[]; name?: string }) => {
      await withKeysContext(tenantId, async (context) => {
        const { text } = await createKey(context, tenantId, {
          scopes: options.scope ?? ['read'],
          name: options.name,
        });
        console.log(text);
      });
    });
  keys
    .command('list <tenant>')
    .description('list the keys: prefix, name, scopes, created, last used, revoked (never the key)')
    .option('--json', 'print the keys as JSON for tools', false)
    .action(async (tenantId: string, options: { json: boolean }) => {
      await withKeysContext(tenantId, async (context) => {
        const listed = await listKeys(context, tenantId);
        console.log(options.json ? JSON.stringify(listed, null, 2) : formatKeys(tenantId, listed));
      });
    });
  keys
    .command('revoke <tenant> <key>')
    .description('revoke a key by its prefix, its id or the whole key: calls with it answer 401 from then on')
    .action(async (tenantId: string, idOrPrefix: string) => {
      await withKeysContext(tenantId, async (context) => {
        console.log((await revokeKey(context, tenantId, idOrPrefix)).text);
      });
    });
}
