/**
 * A lifecycle change that moves a renewal's end (saveLifecycle) keeps the order system's translations
 * of the renewal's other words: an English screen still reads the last payment's frequency and the
 * offer's description in English, and only the moved end is worded by the portal.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renew } from '../../../engine/domain/lifecycle';
import { seedDemoData } from '../../../server/seed';
import { changeLifecycle, listSubscriptionsForUser } from '../../../server/store/subscriptionStore';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: uniqueTenantId('renewal-words'),
  name: 'Verlag',
  hosts: [],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['renewal'],
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});
let db: Database;

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [tenant]);
});

describe("a moved renewal end and the order system's words", () => {
  it('keeps the translations of the renewal fields the portal did not move', async () => {
    const [row] = await db.query<{ id: string; user_id: string }>(
      `select s.id, ubp.user_id from subscriptions s
         join subscription_roles r on r.tenant_id = s.tenant_id and r.subscription_id = s.id and r.role = 'AG'
         join user_business_partners ubp on ubp.tenant_id = s.tenant_id and ubp.bp_number = r.bp_number
        where s.tenant_id = $1 and s.order_status = 'A' order by s.id limit 1`,
      [tenant.id],
    );
    await db.query(
      `update subscriptions set valid_to = '2099-01-31', details = details || $3::jsonb where tenant_id = $1 and id = $2`,
      [
        tenant.id,
        row.id,
        JSON.stringify({
          renewal: {
            autoRenewal: false,
            autoRenewalLastPaymentFrequencyText: 'monatlich',
            maxCycleOfferOfferDescription: 'Jahresabo mit 10 % Preisvorteil',
            expiryIssueNr: '2/2099',
            expiryDesc: 'Endet mit Ausgabe 2/2099',
          },
          translations: {
            'en-GB': {
              renewal: {
                autoRenewalLastPaymentFrequencyText: 'monthly',
                maxCycleOfferOfferDescription: 'Annual subscription, save 10%',
                expiryDesc: 'Ends with issue 2/2099',
              },
            },
          },
        }),
      ],
    );
    const renewed = await changeLifecycle(
      db,
      tenant.id,
      row.id,
      (state) => renew(state, { months: 12, today: '2098-12-01' }),
      { userId: row.user_id, locale: 'de-DE' },
    );
    expect(renewed.ok).toBe(true);
    const english = (await listSubscriptionsForUser(db, tenant.id, row.user_id, { locale: 'en-GB' })).find(
      (s) => s.id === row.id,
    )!;
    expect(english.renewal).toMatchObject({
      autoRenewalLastPaymentFrequencyText: 'monthly',
      maxCycleOfferOfferDescription: 'Annual subscription, save 10%',
      expiryIssueNr: null,
      expiryDesc: null,
    });
  });
});
