import { useEffect, useState } from 'react';
import { ApiError } from '../../core/apiClient';
import { Link } from '../../core/links';
import { mailedLinkRefusal, useMailedLink } from '../../core/mailedLink';
import { usePortal } from '../../core/PortalContext';
import { useLanguage, useTranslation } from '../../core/translation';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { optInsApi } from './optInsApi';

/**
 * /opt-ins/confirm?token=… , anonymous: the page the double opt-in mail links to (account-flows.md
 * §4 "Opt-ins"; server/opt-ins/optInService.ts), in the tenant's look and the mail's language (the
 * link carries `lang`). A mailed link's page (engine/core/mailedLink.ts): it names what the link
 * confirms, and the button confirms; a link that confirms nothing any more (spent, expired or made
 * up) says so at once rather than offering a button that can only fail.
 */
export default function OptInConfirmScreen() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const link = useMailedLink<true>('token');
  const { outcome, token, refuse } = link;
  // What the link confirms; null while it is being asked.
  const [optIns, setOptIns] = useState<string[] | null>(null);

  // Asked again when the page's language changes: the server names the opt-ins in it.
  const language = useLanguage();
  const asking = outcome === null;
  useEffect(() => {
    if (!asking) return;
    let current = true;
    optInsApi(api)
      .linkState(token)
      .then(
        (state) => {
          if (!current) return;
          if (state.open) setOptIns(state.optIns);
          else refuse(new ApiError(404, 'not_found', 'spent link'));
        },
        // The check failing is no reason to withhold the button: the confirmation answers for itself.
        () => current && setOptIns([]),
      );
    return () => {
      current = false;
    };
  }, [api, token, asking, language, refuse]);

  return (
    <section className="account-change" aria-labelledby="opt-in-confirm-title">
      <h1 id="opt-in-confirm-title">{t('opt-ins.confirm.heading')}</h1>
      {asking && !optIns && <Loading />}
      {asking && optIns && (
        <>
          <p>{t('opt-ins.confirm.intro', { tenant: config.tenant.name })}</p>
          {/* What the link confirms, in the page's language (the server names them). */}
          {optIns.length > 0 && (
            <ul className="opt-in-confirm-list">
              {optIns.map((name) => (
                <li key={name}>{name}</li>
              ))}
            </ul>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={link.sending}
              onClick={() =>
                void link.act(() =>
                  optInsApi(api)
                    .confirm(token)
                    .then((): true => true),
                )
              }
            >
              {t('opt-ins.confirm.submit')}
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'done' && (
        <Alert variant="success">
          <p>{t('opt-ins.confirm.done')}</p>
        </Alert>
      )}
      {outcome?.kind === 'refused' && (
        <Alert variant="error">
          <p>
            {mailedLinkRefusal(t, outcome.error, {
              invalid: 'opt-ins.confirm.invalid',
              failed: 'opt-ins.confirm.failed',
            })}
          </p>
        </Alert>
      )}
      {!asking && (
        <p>
          <Link to={href(ROUTES.orders)}>{t('opt-ins.confirm.toPortal')}</Link>
        </p>
      )}
    </section>
  );
}
