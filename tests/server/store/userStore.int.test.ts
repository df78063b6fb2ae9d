import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import {
  UserExistsError,
  createUser,
  findUserByEmail,
  getUserById,
  linkBusinessPartner,
  listBusinessPartnerNumbers,
} from '../../../server/store/userStore';
import { getTestDatabase, testDatabaseKind, uniqueTenantId } from '../../support/database';

const tenantA = uniqueTenantId('users-a');
const tenantB = uniqueTenantId('users-b');
let db: Database;

beforeAll(async () => {
  db = await getTestDatabase();
});

describe(`userStore (${testDatabaseKind()})`, () => {
  it('stores the e-mail trimmed and lower-cased, without a password', async () => {
    const user = await createUser(db, tenantA, {
      email: '  Erika.Mustermann@Example.ORG ',
      displayName: 'Erika',
      firstName: 'Erika',
      lastName: 'Mustermann',
    });
    expect(user).toMatchObject({
      tenantId: tenantA,
      email: 'erika.mustermann@example.org',
      displayName: 'Erika',
      firstName: 'Erika',
      lastName: 'Mustermann',
      passwordHash: null,
      ssoId: null,
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.createdAt).toBeInstanceOf(Date);
  });

  it('finds a user by e-mail in any letter case, and by id', async () => {
    const created = await createUser(db, tenantA, { email: 'finder@example.org' });
    expect((await findUserByEmail(db, tenantA, 'FINDER@example.org'))?.id).toBe(created.id);
    expect(await getUserById(db, tenantA, created.id)).toEqual(created);
    expect(await findUserByEmail(db, tenantA, 'nobody@example.org')).toBeNull();
  });

  it('refuses a second account with the same e-mail in one tenant', async () => {
    await createUser(db, tenantA, { email: 'twice@example.org' });
    await expect(createUser(db, tenantA, { email: 'Twice@Example.org' })).rejects.toBeInstanceOf(
      UserExistsError,
    );
  });

  it('keeps the same e-mail in two tenants as two unrelated accounts', async () => {
    const a = await createUser(db, tenantA, { email: 'shared@example.org', displayName: 'A' });
    const b = await createUser(db, tenantB, { email: 'shared@example.org', displayName: 'B' });
    expect(a.id).not.toBe(b.id);
    expect((await findUserByEmail(db, tenantB, 'shared@example.org'))?.displayName).toBe('B');
    expect(await getUserById(db, tenantB, a.id)).toBeNull();
    expect(await getUserById(db, tenantA, b.id)).toBeNull();
  });

  it('links business partners of its own tenant only', async () => {
    const user = await createUser(db, tenantA, { email: 'linker@example.org' });
    await db.query(
      `insert into business_partners (tenant_id, bp_number, last_name1) values ($1, '0000000042', 'Linker')`,
      [tenantA],
    );
    await db.query(
      `insert into business_partners (tenant_id, bp_number, last_name1) values ($1, '0000000043', 'Other')`,
      [tenantB],
    );
    await linkBusinessPartner(db, tenantA, user.id, '0000000042');
    await linkBusinessPartner(db, tenantA, user.id, '0000000042');
    expect(await listBusinessPartnerNumbers(db, tenantA, user.id)).toEqual(['0000000042']);
    // The foreign key includes tenant_id: a partner of another tenant cannot be linked.
    await expect(linkBusinessPartner(db, tenantA, user.id, '0000000043')).rejects.toThrow();
  });
});
