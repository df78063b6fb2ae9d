// @vitest-environment jsdom
/**
 * The frame of a flow page (engine/account/FlowScreen.tsx): the loading notice, the error dialog
 * whose close goes back, the refusal notice (account-flows.md §6), or the flow's section labelled
 * by its own h1, and — where the screen asks for it — the previous subscription kept while it
 * loads again.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { FlowScreen } from '../../../engine/account/FlowScreen';
import type { Resource, ResourceState } from '../../../engine/account/resource';
import { makeSubscription } from '../../support/subscriptionBuilder';
import { cleanUp, click, openDialog, polyfillDialogs, render } from '../changes/harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const resource = (state: ResourceState<Subscription>): Resource<Subscription> => ({
  state,
  reload: () => {},
});

async function frame(
  state: ResourceState<Subscription>,
  props: { keepWhileLoading?: boolean; refused?: boolean } = {},
) {
  let closed = 0;
  const { page } = await render(
    <FlowScreen
      subscription={resource(state)}
      refusal={props.refused ? 'inactive' : null}
      onClose={() => closed++}
      titleId="test-title"
      title="The flow"
      className="account-change test-flow"
      keepWhileLoading={props.keepWhileLoading}
    >
      {(s) => <p data-testid="content">{s.displayName}</p>}
    </FlowScreen>,
    { path: '/subscriptions/s1/test' },
  );
  return { page, closed: () => closed };
}

describe('FlowScreen', () => {
  const s = makeSubscription();

  it('shows the loading notice while the subscription loads, and no content', async () => {
    const { page } = await frame({ status: 'loading' });
    expect(page.querySelector('[role="status"]')).not.toBeNull();
    expect(page.querySelector('[data-testid="content"]')).toBeNull();
    expect(page.querySelector('h1')).toBeNull();
  });

  it('opens the error dialog when the subscription fails to load; its close goes back', async () => {
    const { page, closed } = await frame({ status: 'failed' });
    const dialog = openDialog(page);
    expect(dialog).not.toBeNull();
    await click(dialog!.querySelector('button'));
    expect(closed()).toBe(1);
  });

  it('renders the section labelled by the flow’s h1 around the content', async () => {
    const { page } = await frame({ status: 'ready', data: s });
    const section = page.querySelector('section.account-change.test-flow')!;
    expect(section.getAttribute('aria-labelledby')).toBe('test-title');
    expect(section.querySelector('h1#test-title')?.textContent).toBe('The flow');
    expect(section.querySelector('[data-testid="content"]')?.textContent).toBe(s.displayName);
  });

  it('shows the refusal notice with the flow’s heading instead of the content', async () => {
    const { page } = await frame({ status: 'ready', data: s }, { refused: true });
    expect(page.querySelector('[data-testid="flow-unavailable"]')?.className).toBe(
      'flow-unavailable account-change test-flow',
    );
    expect(page.querySelector('h1#test-title')?.textContent).toBe('The flow');
    expect(page.querySelector('[data-testid="content"]')).toBeNull();
  });

  it('keeps the previous subscription while it loads again, only where the screen asks', async () => {
    const kept = await frame({ status: 'loading', previous: s }, { keepWhileLoading: true });
    expect(kept.page.querySelector('[data-testid="content"]')).not.toBeNull();
    cleanUp();
    const notKept = await frame({ status: 'loading', previous: s });
    expect(notKept.page.querySelector('[data-testid="content"]')).toBeNull();
  });
});
