/**
 * SQL for portal accounts (`users`). Every query is scoped by the tenant resolved from the request
 * (docs/architecture.md "Data and the server"); e-mail addresses are stored trimmed and lower-cased, unique
 * per tenant, so the same address in two tenants is two unrelated accounts.
 */
import type { Queryable } from '../db/database';
import type { UserRecord } from './rows';
import { normalizeEmail } from '../../engine/domain/fieldRules';

interface UserRow {
  id: string;
  tenant_id: string;
  email: string;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  password_hash: string | null;
  sso_id: string | null;
  created_at: Date;
}

const USER_COLUMNS =
  'id, tenant_id, email, display_name, first_name, last_name, password_hash, sso_id, created_at';

/** The stored form of an e-mail address: trimmed, lower case (one rule, in engine/domain). */
export { normalizeEmail };

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    displayName: row.display_name,
    firstName: row.first_name,
    lastName: row.last_name,
    passwordHash: row.password_hash,
    ssoId: row.sso_id,
    createdAt: row.created_at,
  };
}

/** Thrown by createUser when the tenant already has an account with that e-mail. */
export class UserExistsError extends Error {
  readonly code = 'user_exists';
  constructor(
    readonly tenantId: string,
    readonly email: string,
  ) {
    super(`tenant ${tenantId} already has an account for ${email}`);
    this.name = 'UserExistsError';
  }
}

export async function findUserByEmail(
  db: Queryable,
  tenantId: string,
  email: string,
): Promise<UserRecord | null> {
  const rows = await db.query<UserRow>(
    `select ${USER_COLUMNS} from users where tenant_id = $1 and email = $2`,
    [tenantId, normalizeEmail(email)],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function getUserById(db: Queryable, tenantId: string, id: string): Promise<UserRecord | null> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users where tenant_id = $1 and id = $2`, [
    tenantId,
    id,
  ]);
  return rows[0] ? toUser(rows[0]) : null;
}

export interface NewUser {
  email: string;
  displayName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Optional fixed id (the demo seed uses stable ids); a random UUID otherwise. */
  id?: string;
}

/** Creates an account without a password (magic-link login); throws UserExistsError on a taken e-mail. */
export async function createUser(db: Queryable, tenantId: string, user: NewUser): Promise<UserRecord> {
  const email = normalizeEmail(user.email);
  if (!email) throw new Error('createUser: e-mail is empty');
  const rows = await db.query<UserRow>(
    `insert into users (tenant_id, id, email, display_name, first_name, last_name)
     values ($1, coalesce($2, gen_random_uuid()::text), $3, $4, $5, $6)
     on conflict (tenant_id, email) do nothing
     returning ${USER_COLUMNS}`,
    [
      tenantId,
      user.id ?? null,
      email,
      user.displayName ?? null,
      user.firstName ?? null,
      user.lastName ?? null,
    ],
  );
  if (!rows[0]) throw new UserExistsError(tenantId, email);
  return toUser(rows[0]);
}

/** Business partner numbers the account speaks for (user_business_partners). */
export async function listBusinessPartnerNumbers(
  db: Queryable,
  tenantId: string,
  userId: string,
): Promise<string[]> {
  const rows = await db.query<{ bp_number: string }>(
    `select bp_number::text as bp_number from user_business_partners
      where tenant_id = $1 and user_id = $2 order by bp_number`,
    [tenantId, userId],
  );
  return rows.map((row) => row.bp_number);
}

/** Lets the account speak for a business partner of the same tenant (idempotent). */
export async function linkBusinessPartner(
  db: Queryable,
  tenantId: string,
  userId: string,
  bpNumber: string,
): Promise<boolean> {
  const inserted = await db.query(
    `insert into user_business_partners (tenant_id, user_id, bp_number) values ($1, $2, $3)
     on conflict do nothing
     returning 1`,
    [tenantId, userId, bpNumber],
  );
  // True when the link is new (an account event is recorded for it), false when it existed.
  return inserted.length === 1;
}

/** The addresses of the accounts that speak for a business partner, but for one account. */
export async function otherAccountsOfPartner(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  exceptUserId: string,
): Promise<string[]> {
  const rows = await db.query<{ email: string }>(
    `select u.email from user_business_partners ubp
       join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
      where ubp.tenant_id = $1 and ubp.bp_number = $2 and ubp.user_id <> $3
      order by u.email`,
    [tenantId, bpNumber, exceptUserId],
  );
  return rows.map((row) => row.email);
}

/**
 * Replaces the password hash only if it is still `expected` (the one the current password was
 * checked against; null: none): of two changes made with the same current password at once, the
 * second finds another hash and writes nothing. Answers whether it wrote.
 */
export async function replacePasswordHash(
  db: Queryable,
  tenantId: string,
  userId: string,
  expected: string | null,
  passwordHash: string,
): Promise<boolean> {
  const rows = await db.query(
    `update users set password_hash = $4
      where tenant_id = $1 and id = $2 and password_hash is not distinct from $3 returning id`,
    [tenantId, userId, expected, passwordHash],
  );
  return rows.length > 0;
}

/** Sets (or replaces) the password hash of an account. */
export async function setPasswordHash(
  db: Queryable,
  tenantId: string,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.query(`update users set password_hash = $3 where tenant_id = $1 and id = $2`, [
    tenantId,
    userId,
    passwordHash,
  ]);
}

/** The account with this SSO id in the tenant (kicker-auth and dev logins). */
export async function findUserBySsoId(
  db: Queryable,
  tenantId: string,
  ssoId: string,
): Promise<UserRecord | null> {
  const rows = await db.query<UserRow>(
    `select ${USER_COLUMNS} from users where tenant_id = $1 and sso_id = $2`,
    [tenantId, ssoId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** Links an account to its SSO subject (OAuth and kicker-auth). */
export async function setSsoId(
  db: Queryable,
  tenantId: string,
  userId: string,
  ssoId: string,
): Promise<void> {
  await db.query(`update users set sso_id = $3 where tenant_id = $1 and id = $2`, [tenantId, userId, ssoId]);
}
