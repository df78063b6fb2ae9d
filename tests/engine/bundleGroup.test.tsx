// @vitest-environment jsdom
/**
 * The bundle group page (portal-core.md §2 "Bundle group page"): its subscriptions, and the back
 * link the tenant or the query can hide (§1 hideBackToOverview).
 */
import { afterEach, describe, expect, it } from 'vitest';
import BundleGroupScreen from '../../engine/features/bundle-group/BundleGroupScreen';
import { cleanUp, engineTexts, fakeApi, portalConfig, render } from '../support/renderScreen';
import { makeSubscription } from '../support/subscriptionBuilder';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/bundle-group'];
const en = engineTexts(FOLDERS)['en-GB'];
const master = makeSubscription({
  id: 'B-1',
  displayName: 'Bundle master',
  bundle: { bundleNumber: 'B77' },
  renewal: { renewalBundleComponent: 'M' } as never,
});

async function open(path: string, tenant: Record<string, unknown> = {}) {
  const { page } = await render(<BundleGroupScreen />, {
    api: fakeApi({ '/subscriptions': [master] }),
    path,
    route: 'bundle-group/:bundleNumber',
    portal: portalConfig(FOLDERS, tenant),
  });
  return page;
}

const backLinks = (page: HTMLElement) =>
  [...page.querySelectorAll('a')].filter((a) => a.textContent?.includes(en['bundle-group.back']));

describe('the bundle group page', () => {
  it('lists the bundle with a way back to the orders', async () => {
    const page = await open('/bundle-group/B77');
    expect(page.textContent).toContain('Bundle master');
    expect(backLinks(page)).toHaveLength(1);
  });

  it('hides the way back by the tenant setting or the query parameter', async () => {
    const bySetting = await open('/bundle-group/B77', {
      embedding: {
        isEmbedded: true,
        showLangSelector: false,
        hideNavigation: false,
        hideBackToOverview: true,
        parentOrigins: [],
      },
    });
    expect(bySetting.textContent).toContain('Bundle master');
    expect(backLinks(bySetting)).toHaveLength(0);
    cleanUp();
    const byQuery = await open('/bundle-group/B77?hideBackToOverview=true');
    expect(backLinks(byQuery)).toHaveLength(0);
  });
});
