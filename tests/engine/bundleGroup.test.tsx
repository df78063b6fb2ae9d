// @vitest-environment jsdom
/**
 * The bundle group page (portal-core.md §2 "Bundle group page"): its subscriptions, and the back
 * link the tenant or the query can hide (§1 hideBackToOverview).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import BundleGroupScreen from '../../engine/features/bundle-group/BundleGroupScreen';
import {
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  openDialog,
  polyfillDialogs,
  portalConfig,
  render,
} from '../support/renderScreen';
import { makeSubscription } from '../support/subscriptionBuilder';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/bundle-group'];
const en = engineTexts(FOLDERS)['en-GB'];
const master = makeSubscription({
  id: 'B-1',
  displayName: 'Bundle master',
  bundle: { bundleNumber: 'B77' },
  renewal: { renewalBundleComponent: 'M' } as never,
});

async function open(
  path: string,
  tenant: Record<string, unknown> = {},
  api = fakeApi({ '/subscriptions': [master] }),
) {
  const { page } = await render(<BundleGroupScreen />, {
    api,
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

  it("offers a component's newest issue for download, as its card on the orders page does", async () => {
    const ePaper = makeSubscription({
      id: 'B-2',
      displayName: 'Bundle e-paper',
      bundle: { bundleNumber: 'B77' },
      mixTypeDetails: { mixTypeDesc: 'E-Paper', mediumType: null, pdfDownload: true, complaintIssues: 3 },
    });
    const api = fakeApi(
      {
        '/subscriptions': [master, ePaper],
        '/subscriptions/B-2/delivered-issues?page=0': {
          items: [{ issue: 'I-9', issueNumber: '9/2099', downloadStatus: 'found' }],
          totalPages: 1,
        },
      },
      { '/subscriptions/B-2/delivered-issues/download': { url: '/files/I-9' } },
    );
    const page = await open('/bundle-group/B77', { features: ['issue-download'] }, api);
    const buttons = [...page.querySelectorAll('button')].filter(
      (b) => b.textContent === en['account.downloadLatest'],
    );
    expect(buttons).toHaveLength(1);
    await click(buttons[0]);
    expect(api.calls).toContainEqual({
      method: 'POST',
      path: '/subscriptions/B-2/delivered-issues/download',
      body: { issue: 'I-9' },
    });
    // The fake has no file to fetch: the outcome dialog of the orders page says so.
    expect(openDialog(page)).toBeDefined();
  });
});
