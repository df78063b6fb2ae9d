// @vitest-environment jsdom
/**
 * The timed e-cards' "Do not send" (docs/subscribers.md "E-cards") when another tab acted first:
 * the list says what became of the card instead of the generic error.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ECardList } from '../../schemas/generated/e-card-list';
import type { Resource } from '../../engine/account/resource';
import { ScheduledECards } from '../../engine/features/e-card/ScheduledECards';
import { ApiError } from '../../engine/domain/apiError';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  polyfillDialogs,
  portalConfig,
  render,
} from '../support/renderScreen';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/e-card'];
const texts = engineTexts(FOLDERS);

const card: ECardList['cards'][number] = {
  id: 'card-1',
  template: { name: 'balloons', category: 'birthday' },
  to: 'Oma',
  toEmail: 'o***@example.org',
  sendAt: '2099-06-01T08:00:00.000Z',
} as ECardList['cards'][number];

async function cancelOnce(refusal: ApiError, locale: 'de-DE' | 'en-GB') {
  let reloads = 0;
  const cards: Resource<ECardList> = {
    state: { status: 'ready', data: { cards: [card] } },
    reload: () => void (reloads += 1),
  } as Resource<ECardList>;
  const api = fakeApi({}, { 'DELETE /e-cards/card-1': refusal });
  const { page } = await render(<ScheduledECards cards={cards} categoryLabel={(code) => code} />, {
    api,
    path: '/e-card',
    portal: portalConfig(FOLDERS, { features: ['e-card'] }),
    locale,
  });
  const t = texts[locale];
  await click(byText(page, 'button', t['e-card.scheduledList.cancel']));
  await click(byText(page, 'button', t['e-card.scheduledList.confirm']));
  return { page, reloads, t };
}

describe('"Do not send" after another tab acted', () => {
  it.each(['de-DE', 'en-GB'] as const)(
    'says a card cancelled there is not sent, not the generic error (%s)',
    async (locale) => {
      const { page, reloads, t } = await cancelOnce(
        new ApiError(404, 'not_found', 'There is no such e-card.'),
        locale,
      );
      expect(page.textContent).toContain(t['e-card.scheduledList.alreadyCancelled'].replace('{{to}}', 'Oma'));
      expect(page.textContent).not.toContain(t['shell.genericError']);
      expect(reloads).toBe(1);
    },
  );

  it('says a card the job gave up on is no longer waiting', async () => {
    const { page, t } = await cancelOnce(
      new ApiError(409, 'e_card_not_waiting', 'This e-card could not be sent and is no longer waiting.'),
      'en-GB',
    );
    expect(page.textContent).toContain(t['e-card.scheduledList.notWaiting'].replace('{{to}}', 'Oma'));
  });
});
