import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../core/apiClient';
import { Link } from '../../core/links';
import { usePortal } from '../../core/PortalContext';
import { tooManyText } from '../../core/tooManyText';
import { useTranslation, type TranslateFn } from '../../core/translation';
import { isDeadLinkAnswer } from '../../domain/deadLink';
import { isRateLimited } from '../../domain/retryAfter';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { ssoProfileApi } from './ssoProfileApi';

type Outcome = { kind: 'done' } | { kind: 'refused'; error: unknown } | null;

/** Why the link did not take the account back, in the screen's language. */
function refusalText(t: TranslateFn, error: unknown): string {
  return isRateLimited(error)
    ? tooManyText(t, error)
    : isDeadLinkAnswer(error)
      ? t('sso-profile-page.undo.invalid')
      : error instanceof ApiError && error.code === 'email_taken'
        ? t('sso-profile-page.undo.taken')
        : t('sso-profile-page.undo.failed');
}

/**
 * /sso-profile/undo?token=… , anonymous: the link of the notice an account's old address gets when
 * the account moves to another one (server/sso-profile-page/ssoProfileService.ts undoEmailChange).
 * A session someone else holds could move the account to their own mailbox; the old mailbox takes
 * it back. Opening the link changes nothing (a mail scanner follows links): the button does. The
 * address is then left without the spent token, the outcome kept in the history entry, so a
 * reload shows what happened rather than a button that can only fail.
 */
export default function SsoUndoScreen() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const location = useLocation();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const undoneBefore = (location.state as { undone?: boolean } | null)?.undone === true;
  const [outcome, setOutcome] = useState<Outcome>(
    undoneBefore
      ? { kind: 'done' }
      : token
        ? null
        : { kind: 'refused', error: new ApiError(404, 'not_found', 'no token') },
  );
  const [sending, setSending] = useState(false);

  async function undo() {
    setSending(true);
    try {
      await ssoProfileApi(api).undoEmailChange(token);
      setOutcome({ kind: 'done' });
      navigate(location.pathname, { replace: true, state: { undone: true } });
    } catch (error) {
      setOutcome({ kind: 'refused', error });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="account-change" aria-labelledby="sso-undo-title">
      <h1 id="sso-undo-title">{t('sso-profile-page.undo.heading')}</h1>
      {outcome === null && (
        <>
          <p>{t('sso-profile-page.undo.intro')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={sending} onClick={() => void undo()}>
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
          <p>{refusalText(t, outcome.error)}</p>
        </Alert>
      )}
    </section>
  );
}
