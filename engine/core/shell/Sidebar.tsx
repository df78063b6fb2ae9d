import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { menuItems } from '../router';
import { usePortal } from '../PortalContext';

/**
 * §2 "Sidebar menu", built from the enabled features. On small screens it collapses behind a
 * toggle labelled with the current route's menu title (or the generic menu title).
 */
export function Sidebar() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const items = menuItems(config.tenant.features);
  const current = items.find((item) => location.pathname === item.to || location.pathname.startsWith(`${item.to}/`));
  const toggleLabel = current ? t(current.labelKey) : t('shell.menuTitle');

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
      </button>
      <ul id="sidebar-items" className="sidebar-items">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} onClick={() => setOpen(false)}>
              {t(item.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
