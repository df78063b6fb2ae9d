// @vitest-environment jsdom
/**
 * The way to customer service (portal-core.md §8): the contact form where the tenant offers it,
 * else its fallback e-mail and phone — never a link to a page that only says the feature is off.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDialog } from '../../../engine/ui/ErrorDialog';
import { ContactLink } from '../../../engine/core/ContactLink';
import { LockedHint } from '../../../engine/account/changes/LockedHint';
import { cleanUp, engineTexts, polyfillDialogs, portalConfig, render } from '../../support/renderScreen';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = ['core', 'account'];
const en = engineTexts(FOLDERS)['en-GB'];
const withContact = portalConfig(FOLDERS, { features: ['contact-form'] });
const withoutContact = portalConfig(FOLDERS);

describe('the way to customer service', () => {
  it('is the contact form’s link where the tenant offers it', async () => {
    const { page } = await render(
      <div>
        <ContactLink query={{ subscriptionId: 's1' }}>write to us</ContactLink> <LockedHint />
      </div>,
      { path: '/', portal: withContact },
    );
    expect(page.querySelector('a[href="/contact?subscriptionId=s1"]')?.textContent).toBe('write to us');
    expect(page.textContent).toContain(en['account.address.lockedLink']);
    expect(page.querySelector('a[href^="mailto:"]')).toBeNull();
  });

  it('is the fallback e-mail and phone where it does not, in a sentence and in the error dialog', async () => {
    const { page } = await render(
      <>
        <div>
          <ContactLink>write to us</ContactLink> <LockedHint />
        </div>
        <ErrorDialog onClose={() => undefined} />
      </>,
      { path: '/', portal: withoutContact },
    );
    expect(page.querySelector('a[href*="contact"]')).toBeNull();
    expect(page.textContent).not.toContain('write to us');
    expect(page.textContent).toContain(en['account.address.lockedFallback']);
    expect(page.querySelectorAll('a[href="mailto:help@acme.example"]').length).toBe(3);
    expect(page.querySelectorAll('a[href="tel:+4930123"]').length).toBe(3);
    expect([...page.querySelectorAll('button')].map((b) => b.textContent)).not.toContain(
      en['shell.toContact'],
    );
  });
});
