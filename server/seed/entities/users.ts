/** The personas' accounts and the business partners they speak for (no password: magic link, or demoPasswords.ts). */
import { type SeedModule, need } from '../context';
import { insertTables } from '../insertRows';

export interface UserSeedRow {
  id: string;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
}

const writeUsers = insertTables({
  table: 'users',
  columns: 'id text, email text, display_name text, first_name text, last_name text',
  rows: (data) => data.users,
  // An account that signed up before the demo data was seeded keeps its id; links go by e-mail.
  onConflict: 'on conflict (tenant_id, email) do nothing',
});

export const users: SeedModule = {
  name: 'users',
  build(ctx) {
    const { main, second, third, company, demo } = need(ctx, 'personas');
    for (const persona of [main, second, third, demo, company]) {
      const { person, email, bp } = persona;
      ctx.data.users.push({
        id: ctx.rng.uuid(),
        email,
        display_name: `${person.firstName} ${person.lastName}`,
        first_name: person.firstName,
        last_name: person.lastName,
      });
      ctx.data.userBusinessPartners.push({ email, bp_number: bp });
    }
  },
  async insert(tx, data) {
    await writeUsers(tx, data);
    // Links go by e-mail: the user id is the seeded one, or an earlier sign-up's.
    await tx.query(
      `insert into user_business_partners (tenant_id, user_id, bp_number)
     select $1, u.id, x.bp_number
       from jsonb_to_recordset($2::jsonb) as x(email text, bp_number text)
       join users u on u.tenant_id = $1 and u.email = x.email
     on conflict do nothing`,
      [data.tenantId, JSON.stringify(data.userBusinessPartners)],
    );
  },
};
