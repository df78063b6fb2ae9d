import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Link } from '../../core/links';
import { usePortal } from '../../core/PortalContext';
import { tooManyText } from '../../core/tooManyText';
import { useLanguage, useTranslation, type TranslateFn } from '../../core/translation';
import { isDeadLinkAnswer } from '../../domain/deadLink';
import { isRateLimited } from '../../domain/retryAfter';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { optInsApi } from './optInsApi';

type Outcome =
  | { kind: 'checking' }
  | { kind: 'asking'; optIns: string[] }
  | { kind: 'done' }
  | { kind: 'refused'; error: unknown }
  | { kind: 'dead' };

/** Why the link confirmed nothing, in the screen's language. */
function refusalText(t: TranslateFn, outcome: Outcome): string {
  if (outcome.kind === 'dead') return t('opt-ins.confirm.invalid');
  if (outcome.kind !== 'refused') return '';
  return isRateLimited(outcome.error)
    ? tooManyText(t, outcome.error)
    : isDeadLinkAnswer(outcome.error)
      ? t('opt-ins.confirm.invalid')
      : t('opt-ins.confirm.failed');
}

/**
 * /opt-ins/confirm?token=… , anonymous: the page the double opt-in mail links to (account-flows.md
 * §4 "Opt-ins"; server/opt-ins/optInService.ts), in the tenant's look and the mail's language (the
 * link carries `lang`). Opening the link changes nothing (a mail scanner follows links): the button
 * confirms. A link that confirms nothing any more (spent, expired or made up) says so at once rather
 * than offering a button that can only fail; after the confirmation the outcome is kept in the
 * history entry, so a reload shows it.
 */
export default function OptInConfirmScreen() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const navigate = useNavigate();
  const location = useLocation();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const confirmedBefore = (location.state as { confirmed?: boolean } | null)?.confirmed === true;
  const [outcome, setOutcome] = useState<Outcome>(
    confirmedBefore ? { kind: 'done' } : token ? { kind: 'checking' } : { kind: 'dead' },
  );
  const [sending, setSending] = useState(false);

  // Asked again when the page's language changes: the server names the opt-ins in it.
  const language = useLanguage();
  const asking = outcome.kind === 'checking' || outcome.kind === 'asking';
  useEffect(() => {
    if (!asking) return;
    let current = true;
    const settle = (next: Outcome) =>
      current && setOutcome((now) => (now.kind === 'checking' || now.kind === 'asking' ? next : now));
    optInsApi(api)
      .linkState(token)
      .then(
        ({ open, optIns }) => settle(open ? { kind: 'asking', optIns } : { kind: 'dead' }),
        // The check failing is no reason to withhold the button: the confirmation answers for itself.
        () => settle({ kind: 'asking', optIns: [] }),
      );
    return () => {
      current = false;
    };
  }, [api, token, asking, language]);

  async function confirm() {
    setSending(true);
    try {
      await optInsApi(api).confirm(token);
      setOutcome({ kind: 'done' });
      navigate(`${location.pathname}${location.search}`, { replace: true, state: { confirmed: true } });
    } catch (error) {
      setOutcome({ kind: 'refused', error });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="account-change" aria-labelledby="opt-in-confirm-title">
      <h1 id="opt-in-confirm-title">{t('opt-ins.confirm.heading')}</h1>
      {outcome.kind === 'checking' && <Loading />}
      {outcome.kind === 'asking' && (
        <>
          <p>{t('opt-ins.confirm.intro', { tenant: config.tenant.name })}</p>
          {/* What the link confirms, in the page's language (the server names them). */}
          {outcome.optIns.length > 0 && (
            <ul className="opt-in-confirm-list">
              {outcome.optIns.map((name) => (
                <li key={name}>{name}</li>
              ))}
            </ul>
          )}
          <div className="form-actions">
            <button type="button" className="button" disabled={sending} onClick={() => void confirm()}>
              {t('opt-ins.confirm.submit')}
            </button>
          </div>
        </>
      )}
      {outcome.kind === 'done' && (
        <Alert variant="success">
          <p>{t('opt-ins.confirm.done')}</p>
        </Alert>
      )}
      {(outcome.kind === 'refused' || outcome.kind === 'dead') && (
        <Alert variant="error">
          <p>{refusalText(t, outcome)}</p>
        </Alert>
      )}
      {outcome.kind !== 'checking' && outcome.kind !== 'asking' && (
        <p>
          <Link to={href(ROUTES.orders)}>{t('opt-ins.confirm.toPortal')}</Link>
        </p>
      )}
    </section>
  );
}
