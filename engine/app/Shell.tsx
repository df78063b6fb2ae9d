import { lazy, Suspense } from 'react';
import { useAtomValue } from 'jotai';
import { Outlet } from 'react-router';
import { useTranslation } from '../core/translation';
import { authStateAtom, isFullyLoggedIn } from '../core/authState';
import { usePortal } from '../core/PortalContext';
import { ScreenErrorBoundary } from '../core/ScreenErrorBoundary';
import { Header } from './shell/Header';
import { AnnouncementBanner } from './shell/AnnouncementBanner';
import { Footer } from './shell/Footer';
import { usePageTitle } from './shell/usePageTitle';
import { useFocusRecovery } from './shell/useFocusRecovery';

/**
 * The menu is for signed-in visitors only: its code (the menu items of every feature, the 'new'
 * badge's state) loads with the first signed-in screen, not with the login page. Until it is there
 * an empty column of its size holds its place, so the screen beside it does not move.
 */
const Sidebar = lazy(() => import('./shell/Sidebar').then((module) => ({ default: module.Sidebar })));
const sidebarPlaceholder = (
  <div className="sidebar sidebar-placeholder" aria-hidden="true">
    {/* On a phone the menu is its toggle: a box of the toggle's own rules and one line of text. */}
    <div className="sidebar-toggle">{'\u00a0'}</div>
  </div>
);

/** The page shell of portal-core.md §2 "Shell". */
export function Shell() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const auth = useAtomValue(authStateAtom);
  const { embedding } = config.tenant;
  // §2: the sidebar only when the user is fully logged in and navigation is not hidden.
  const showSidebar = isFullyLoggedIn(auth) && !embedding.hideNavigation;
  usePageTitle(config.tenant.name);
  useFocusRecovery('main');

  return (
    <div className={`portal${embedding.isEmbedded ? ' portal-embedded' : ''}`}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <Header />
      <AnnouncementBanner />
      <div className={`portal-body${showSidebar ? ' with-sidebar' : ''}`}>
        {showSidebar && (
          // A menu that fails leaves the screen beside it working, and its place held.
          <ScreenErrorBoundary fallback={sidebarPlaceholder}>
            <Suspense fallback={sidebarPlaceholder}>
              <Sidebar />
            </Suspense>
          </ScreenErrorBoundary>
        )}
        <main id="main" className="portal-main" tabIndex={-1}>
          <ScreenErrorBoundary>
            <Outlet />
          </ScreenErrorBoundary>
        </main>
      </div>
      {/* §1: when embedded the footer is hidden. */}
      {!embedding.isEmbedded && <Footer />}
    </div>
  );
}
