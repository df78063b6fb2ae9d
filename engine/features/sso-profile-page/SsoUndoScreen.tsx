import { useEffect } from 'react';
import { ApiError } from '../../core/apiClient';
import { Link } from '../../core/links';
import { mailedLinkRefusal, useMailedLink } from '../../core/mailedLink';
import { usePortal } from '../../core/PortalContext';
import { useTranslation } from '../../core/translation';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { ssoProfileApi } from './ssoProfileApi';

/**
 * /sso-profile/undo?token=… , anonymous: the link of the notice an account's old address gets when
 * the account moves to another one (server/sso-profile-page/ssoProfileService.ts undoEmailChange).
 * A session someone else holds could move the account to their own mailbox; the old mailbox takes
 * it back. A mailed link's page (engine/core/mailedLink.ts): the button takes it back.
 */
export default function SsoUndoScreen() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const link = useMailedLink<true>('token');
  const { outcome, token, refuse } = link;
  // A link spent or voided (the account was taken back with an older one) says so at once rather
  // than offering a button that can only fail.
  const asking = outcome === null;
  useEffect(() => {
    if (!asking) return;
    let current = true;
    ssoProfileApi(api)
      .undoLinkState(token)
      .then(
        (state) => current && !state.open && refuse(new ApiError(404, 'not_found', 'spent link')),
        // The check failing is no reason to withhold the button: taking back answers for itself.
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [api, token, asking, refuse]);

  return (
    <section className="account-change" aria-labelledby="sso-undo-title">
      <h1 id="sso-undo-title">{t('sso-profile-page.undo.heading')}</h1>
      {outcome === null && (
        <>
          <p>{t('sso-profile-page.undo.intro')}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={link.sending}
              onClick={() =>
                void link.act(() =>
                  ssoProfileApi(api)
                    .undoEmailChange(link.token)
                    .then((): true => true),
                )
              }
            >
              {t('sso-profile-page.undo.submit')}
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'done' && (
        <Alert variant="success">
          <p>{t('sso-profile-page.undo.done')}</p>
          <p>
            <Link to={href(ROUTES.login)}>{t('sso-profile-page.undo.toLogin')}</Link>
          </p>
        </Alert>
      )}
      {outcome?.kind === 'refused' && (
        <Alert variant="error">
          <p>
            {mailedLinkRefusal(t, outcome.error, {
              invalid: 'sso-profile-page.undo.invalid',
              failed: 'sso-profile-page.undo.failed',
              byCode: { email_taken: 'sso-profile-page.undo.taken' },
            })}
          </p>
        </Alert>
      )}
    </section>
  );
}
