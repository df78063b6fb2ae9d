import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation, useNavigate } from 'react-router';
import { Link } from '../../core/links';
import type { LoyaltyOptInAnswer } from '../../../schemas/generated/loyalty';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { loyaltyApi } from './loyaltyApi';
import './loyalty.css';

/** /loyalty-programme/optin: the landing (account-flows.md §2): what the club offers and the join button. */
export default function LoyaltyOptInScreen() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  // The club page the visitor asked for before the landing (engine/app/access.tsx OptInGate), else the rewards.
  const asked = (useLocation().state as { optInFor?: unknown } | null)?.optInFor;
  const afterJoining =
    typeof asked === 'string' && asked.startsWith('/') && !asked.startsWith('//')
      ? asked
      : href(ROUTES.loyaltyRewards);
  const optIn = useResource<LoyaltyOptInAnswer>('loyalty-optin', (client) => loyaltyApi(client).optIn());
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function join() {
    setSending(true);
    try {
      const answer = await loyaltyApi(api).setOptIn(true);
      if (answer.loyaltyOption) navigate(afterJoining, { replace: true });
    } catch {
      console.error('loyalty opt-in failed'); // §8: opt-in errors are only logged
      setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="loyalty loyalty-landing" aria-labelledby="loyalty-landing-title">
      <h1 id="loyalty-landing-title">{t('loyalty-programme.optin.heading')}</h1>
      <ResourceView resource={optIn} errorKey="loyalty-programme.loadError">
        {(data) => (
          <div className="card loyalty-landing-card">
            <p>{t('loyalty-programme.optin.intro')}</p>
            <ul className="loyalty-benefits">
              <li>{t('loyalty-programme.optin.benefit1')}</li>
              <li>{t('loyalty-programme.optin.benefit2')}</li>
              <li>{t('loyalty-programme.optin.benefit3')}</li>
            </ul>
            {data.loyaltyOption ? (
              <>
                <p>{t('loyalty-programme.optin.member')}</p>
                <Link className="button" to={href(ROUTES.loyaltyRewards)}>
                  {t('loyalty-programme.optin.toRewards')}
                </Link>
              </>
            ) : (
              <>
                <p className="form-hint">{t('loyalty-programme.optin.consent')}</p>
                <button type="button" className="button" disabled={sending} onClick={() => void join()}>
                  {t('loyalty-programme.optin.join')}
                </button>
              </>
            )}
          </div>
        )}
      </ResourceView>
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </section>
  );
}
