// @vitest-environment jsdom
/**
 * The portal's in-app links (engine/core/links.tsx): the address with the tenant's base path, a
 * client-side navigation on a plain click, the browser's own on a modified one, and the menu's mark
 * of the current page by react-router's NavLink rule.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Link, NavLink } from '../../../engine/core/links';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
});

function Where() {
  const location = useLocation();
  return <output>{location.pathname + location.search}</output>;
}

function render(path: string, links: React.ReactNode) {
  host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
  act(() =>
    root!.render(
      <MemoryRouter basename="/t/demo" initialEntries={[`/t/demo${path}`]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {links}
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>,
    ),
  );
  return host;
}

const click = (element: Element, init: MouseEventInit = {}) => {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  act(() => void element.dispatchEvent(event));
  return event;
};

describe('Link', () => {
  it('points at the path under the base path and navigates in the page on a plain click', () => {
    let clicked = 0;
    const page = render(
      '/orders',
      <Link to="/subscriptions/7?tab=invoices" className="button" onClick={() => (clicked += 1)}>
        Go
      </Link>,
    );
    const anchor = page.querySelector('a')!;
    expect(anchor.getAttribute('href')).toBe('/t/demo/subscriptions/7?tab=invoices');
    expect(anchor.className).toBe('button');
    const event = click(anchor);
    expect(event.defaultPrevented).toBe(true);
    expect(clicked).toBe(1);
    expect(page.querySelector('output')!.textContent).toBe('/subscriptions/7?tab=invoices');
  });

  it('takes the path in parts, as a sign-in link with its return address does', () => {
    const page = render(
      '/orders',
      <Link to={{ pathname: '/login', search: '?next=%2Forders' }}>Sign in</Link>,
    );
    expect(page.querySelector('a')!.getAttribute('href')).toBe('/t/demo/login?next=%2Forders');
  });

  it("leaves a modified click, another target and a handler's preventDefault to the browser", () => {
    const page = render(
      '/orders',
      <>
        <Link to="/a">A</Link>
        <Link to="/b" target="_blank">
          B
        </Link>
        <Link to="/c" onClick={(event) => event.preventDefault()}>
          C
        </Link>
      </>,
    );
    const [a, b, c] = page.querySelectorAll('a');
    expect(click(a, { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(click(b).defaultPrevented).toBe(false);
    click(c);
    expect(page.querySelector('output')!.textContent).toBe('/orders');
  });
});

describe('NavLink', () => {
  const menu = (
    <>
      <NavLink to="/orders" className="item">
        Orders
      </NavLink>
      <NavLink to="/loyalty-programme" end>
        Loyalty
      </NavLink>
    </>
  );

  it('marks the current page and the pages below it', () => {
    const page = render('/ORDERS/123', menu);
    const [orders, loyalty] = page.querySelectorAll('a');
    expect(orders.getAttribute('aria-current')).toBe('page');
    expect(orders.className).toBe('item active');
    expect(loyalty.hasAttribute('aria-current')).toBe(false);
    expect(loyalty.hasAttribute('class')).toBe(false);
  });

  it('with `end`, marks its own path only, and no path that merely starts like it', () => {
    const below = render('/loyalty-programme/history', menu);
    expect(below.querySelectorAll('a')[1].hasAttribute('aria-current')).toBe(false);
    act(() => root?.unmount());
    const own = render('/loyalty-programme', menu);
    expect(own.querySelectorAll('a')[1].getAttribute('aria-current')).toBe('page');
    act(() => root?.unmount());
    const lookalike = render('/orders-archive', menu);
    expect(lookalike.querySelectorAll('a')[0].hasAttribute('aria-current')).toBe(false);
  });
});
