import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../core/translation';
import { NavLink } from '../../core/links';
import { usePortal } from '../../core/PortalContext';
import { notifyHostFrame } from '../../core/hostFrame';
import { href, ROUTES } from '../../domain/routeRefs';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { loyaltyApi } from './loyaltyApi';
import './loyalty.css';

/**
 * The frame of the club's pages: the heading, the sections (rewards, favourites, redeemed rewards)
 * and leaving the club (§4 "Loyalty opt-out": tell the host page `loyaltyOptionDisabled` and log out
 * once the option is false).
 */
export function LoyaltyLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const sections = [
    { to: href(ROUTES.loyaltyRewards), label: t('loyalty-programme.nav.rewards') },
    { to: href(ROUTES.loyaltyFavorites), label: t('loyalty-programme.nav.favorites') },
    { to: href(ROUTES.loyaltyHistory), label: t('loyalty-programme.nav.history') },
  ];
  return (
    <section className="loyalty" aria-labelledby="loyalty-title">
      <h1 id="loyalty-title">{t('loyalty-programme.heading')}</h1>
      <nav className="loyalty-nav" aria-label={t('loyalty-programme.nav.label')}>
        <ul>
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to} end={section.to !== href(ROUTES.loyaltyRewards)}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
      <OptOut />
    </section>
  );
}

function OptOut() {
  const { t } = useTranslation();
  const { api, config, logout } = usePortal();
  const [asking, setAsking] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function leave() {
    setSending(true);
    try {
      const answer = await loyaltyApi(api).setOptIn(false);
      if (!answer.loyaltyOption) {
        notifyHostFrame('loyaltyOptionDisabled', config.tenant.embedding.parentOrigins);
        // §4: signed out; the login page says why (LEFT_CLUB_PARAM).
        await logout({ leftClub: true });
        return;
      }
      setAsking(false);
    } catch {
      // §8: opt-in errors are only logged; the dialog says it did not work.
      console.error('loyalty opt-out failed');
      setAsking(false);
      setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="loyalty-leave">
      <button type="button" className="button button-danger" onClick={() => setAsking(true)}>
        {t('loyalty-programme.optout.button')}
      </button>
      {asking && (
        <Dialog
          title={t('loyalty-programme.optout.title')}
          onClose={() => setAsking(false)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
                {t('loyalty-programme.cancel')}
              </button>
              <button
                type="button"
                className="button button-danger"
                disabled={sending}
                onClick={() => void leave()}
              >
                {t('loyalty-programme.optout.confirm')}
              </button>
            </>
          }
        >
          <p>{t('loyalty-programme.optout.text')}</p>
        </Dialog>
      )}
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </div>
  );
}
