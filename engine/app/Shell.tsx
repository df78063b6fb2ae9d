import { useAtomValue } from 'jotai';
import { Outlet } from 'react-router';
import { useTranslation } from '../core/translation';
import { authStateAtom, isFullyLoggedIn } from '../core/authState';
import { usePortal } from '../core/PortalContext';
import { Header } from './shell/Header';
import { AnnouncementBanner } from './shell/AnnouncementBanner';
import { Sidebar } from './shell/Sidebar';
import { Footer } from './shell/Footer';
import { usePageTitle } from './shell/usePageTitle';

/** The page shell of portal-core.md §2 "Shell". */
export function Shell() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const auth = useAtomValue(authStateAtom);
  const { embedding } = config.tenant;
  // §2: the sidebar only when the user is fully logged in and navigation is not hidden.
  const showSidebar = isFullyLoggedIn(auth) && !embedding.hideNavigation;
  usePageTitle(config.tenant.name);

  return (
    <div className={`portal${embedding.isEmbedded ? ' portal-embedded' : ''}`}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <Header />
      <AnnouncementBanner />
      <div className={`portal-body${showSidebar ? ' with-sidebar' : ''}`}>
        {showSidebar && <Sidebar />}
        <main id="main" className="portal-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      {/* §1: when embedded the footer is hidden. */}
      {!embedding.isEmbedded && <Footer />}
    </div>
  );
}
