import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath, type To } from 'react-router';

/**
 * The portal's in-app links, made from react-router's own hooks for custom links (`useHref` for
 * the address with the tenant's base path, `useLinkClickHandler` for a client-side navigation that
 * leaves modified and middle clicks to the browser). react-router's `Link` and `NavLink` also carry
 * its framework mode's prefetching, view transitions and form code, which this router never runs:
 * 2.6 KB of gzipped JavaScript on every page (docs/testing.md "Speed and size").
 */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path inside the portal (or its parts), as react-router resolves it: absolute, or relative to the route. */
  to: To;
  replace?: boolean;
}

export function Link({ to, replace, onClick, target, children, ...anchor }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) navigate(event);
  };
  return (
    <a {...anchor} href={href} target={target} onClick={click}>
      {children}
    </a>
  );
}

export interface NavLinkProps extends LinkProps {
  /** Marked only on its own path, not on the paths below it. */
  end?: boolean;
}

/**
 * A menu link marked as the current page (`aria-current="page"`, class `active`) on its path and,
 * unless `end`, on the paths below it: react-router's NavLink rule, case-insensitive as there.
 */
export function NavLink({ end = false, className, ...link }: NavLinkProps) {
  const target = useResolvedPath(link.to).pathname.toLowerCase();
  const current = useLocation().pathname.toLowerCase();
  const slash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const active = current === target || (!end && current.startsWith(target) && current.charAt(slash) === '/');
  return (
    <Link
      {...link}
      aria-current={active ? 'page' : undefined}
      className={[className, active ? 'active' : undefined].filter(Boolean).join(' ') || undefined}
    />
  );
}
