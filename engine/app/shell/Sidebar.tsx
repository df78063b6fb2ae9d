import { useState } from 'react';
import { useLocation } from 'react-router';
import { Link, NavLink } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { menuItems } from '../../features';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { useNewSubscription } from '../../account/newSubscription';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { currentMenuItem } from './menuSection';
import { localized } from '../../ui/localized';

/**
 * §2 "Sidebar menu", built from the enabled features. On small screens it collapses behind a
 * toggle labelled with the current route's menu title (or the generic menu title).
 */
export function Sidebar() {
  const { config } = usePortal();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  // §2 "Menu items": /orders gets a green 'new' badge when a subscription was just linked.
  const newSubscription = useNewSubscription();
  const items = menuItems(config.tenant.features)
    .filter((item) => !item.when || item.when(config.tenant))
    .map((item) => ({ ...item, to: href(item.route) }));
  // §2 "Tenants may add external links" (external-navigation feature), with their text in the
  // screen's language and, shown inside the portal, their path /<text>.
  const externalLinks = (
    isFeatureOn(config.tenant, 'external-navigation') ? config.tenant.externalNavigationLinks : []
  ).map((link) => {
    const text = localized(link.text, i18n.language);
    return { ...link, text, to: `/${encodeURIComponent(text)}` };
  });
  const current = currentMenuItem(items, location.pathname);
  // §2: the toggle names the current route's menu item, an external link shown inside the portal
  // included, else the menu.
  const toggleLabel = current
    ? t(current.labelKey)
    : (externalLinks.find((link) => link.showInIframe && link.to === location.pathname)?.text ??
      t('shell.menuTitle'));

  return (
    <nav className={`sidebar${open ? ' sidebar-open' : ''}`} aria-label={t('shell.menuTitle')}>
      <button
        type="button"
        className="sidebar-toggle"
        aria-expanded={open}
        aria-controls="sidebar-items"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">☰</span> {toggleLabel}
        {/* Collapsed on small screens, the menu would hide the orders item's badge: the toggle carries it. */}
        {newSubscription && <span className="menu-badge">{t('account.newBadge')}</span>}
      </button>
      <ul id="sidebar-items" className="sidebar-items">
        {items.map((item) => (
          <li key={item.to}>
            {/* The item of the current section is marked even on its sub-pages (detail, bundle, flows). */}
            <Link
              to={item.to}
              onClick={() => setOpen(false)}
              aria-current={item === current ? 'page' : undefined}
              className={item === current ? 'active' : undefined}
            >
              {t(item.labelKey)}
              {item.route === ROUTES.orders && newSubscription && (
                <span className="menu-badge">{t('account.newBadge')}</span>
              )}
            </Link>
          </li>
        ))}
        {externalLinks.map((link) => (
          <li key={`external-${link.url}`}>
            {/* §2: shown inside the portal at /<text>, or opened in the same or a new tab; the text in the screen's language. */}
            {link.showInIframe ? (
              <NavLink to={link.to} onClick={() => setOpen(false)}>
                {link.text}
              </NavLink>
            ) : (
              <a href={link.url} {...(link.openInNewTab ? { target: '_blank', rel: 'noreferrer' } : {})}>
                {link.text}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
