import type { ReactNode } from 'react';
import { Link } from './links';
import { useRouteServed } from './featureRoutes';
import { InlineFallbackContact } from './FallbackContact';
import { href, ROUTES } from '../domain/routeRefs';

/**
 * The way to customer service within a sentence: the contact form's link where the tenant offers
 * it, else the tenant's fallback e-mail and phone (portal-core.md §8), never a link to a page that
 * only says the feature is off.
 */
export function ContactLink({
  query,
  onClick,
  children,
}: {
  query?: Readonly<Record<string, string>>;
  onClick?: () => void;
  children: ReactNode;
}) {
  const served = useRouteServed(ROUTES.contact);
  if (!served) return <InlineFallbackContact />;
  return (
    <Link to={href(ROUTES.contact, {}, query)} onClick={onClick}>
      {children}
    </Link>
  );
}
