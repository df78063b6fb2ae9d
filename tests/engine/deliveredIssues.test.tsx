// @vitest-environment jsdom
/**
 * The delivered issues of the subscription page: a replacement after a complaint is listed when
 * it is sent, so its day still to come reads "arrives by", not as a day it was delivered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveredIssues } from '../../engine/features/subscription/DeliveredIssues';
import { addDays, formatDate, utcDay } from '../../engine/domain/dates';
import { cleanUp, engineTexts, fakeApi, portalConfig, render, settle } from '../support/renderScreen';
import { makeSubscription } from '../support/subscriptionBuilder';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/subscription'];
const en = engineTexts(FOLDERS)['en-GB'];
const s = makeSubscription({ id: 'S-7' });

describe('the delivered issues', () => {
  it('say of a replacement still on its way when it arrives', async () => {
    const today = utcDay(new Date());
    const soon = addDays(today, 7);
    const past = addDays(today, -20);
    const { page } = await render(<DeliveredIssues subscription={s} ctx={{ tenant: { features: [] } }} />, {
      api: fakeApi({
        [`/subscriptions/${s.id}/delivered-issues?page=0`]: {
          items: [
            { issue: 'C-10', issueNumber: '10/2026', dateOfFirstSale: soon, downloadStatus: null },
            { issue: 'I-10', issueNumber: '10/2026', dateOfFirstSale: past, downloadStatus: null },
          ],
          totalPages: 1,
          totalItems: 2,
        },
      }),
      path: '/',
      portal: portalConfig(FOLDERS),
    });
    await settle();
    const rows = [...page.querySelectorAll('.history-item')].map((row) => row.textContent);
    expect(rows[0]).toContain('Replacement for issue 10/2026');
    expect(rows[0]).toContain(en['subscription.arrivesBy'].replace('{{date}}', formatDate(soon, 'en-GB')));
    expect(rows[1]).toContain(formatDate(past, 'en-GB'));
    expect(rows[1]).not.toContain(en['subscription.arrivesBy'].replace(' {{date}}', ''));
  });
});
