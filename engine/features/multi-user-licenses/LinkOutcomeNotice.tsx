import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { href, ROUTES } from '../../domain/routeRefs';
import { tooManyText } from '../../core/tooManyText';
import { Alert } from '../../ui/Alert';
import type { AcceptOutcome } from './licenseErrors';

/**
 * What a page opened from a licence mail shows once its link has been used or refused (§8
 * "Licences": done, not found, invalid link, already used, error with try again). The accept
 * page and the manager's confirm page differ only in their texts.
 */
export function LinkOutcomeNotice({
  outcome,
  email,
  texts,
  onTryAgain,
  refusal,
}: {
  outcome: AcceptOutcome | 'done';
  email: string;
  /** The refused call's error: a 429 says when to try again. */
  refusal?: unknown;
  texts: { done: string; notFound: string; invalidLink: string; alreadyUsed: string };
  onTryAgain: () => void;
}) {
  const { t } = useTranslation();
  const signIn = t('multi-user-licenses.accept.signIn');
  switch (outcome) {
    case 'done':
      return (
        <Alert variant="success">
          <p>{t(texts.done, { email })}</p>
          <p>
            <Link className="button" to={href(ROUTES.login)}>
              {signIn}
            </Link>
          </p>
        </Alert>
      );
    case 'notFound':
      return <Alert variant="info">{t(texts.notFound)}</Alert>;
    case 'invalidLink':
      return <Alert variant="error">{t(texts.invalidLink)}</Alert>;
    case 'alreadyAccepted':
      return (
        <Alert variant="info">
          <p>{t(texts.alreadyUsed)}</p>
          <p>
            <Link to={href(ROUTES.login)}>{signIn}</Link>
          </p>
        </Alert>
      );
    default:
      return (
        <Alert variant="error">
          <p>
            {outcome === 'rateLimited'
              ? tooManyText(t, refusal, t('multi-user-licenses.accept.rateLimited'))
              : t('multi-user-licenses.accept.error')}
          </p>
          <button type="button" className="button button-secondary" onClick={onTryAgain}>
            {t('multi-user-licenses.accept.tryAgain')}
          </button>
        </Alert>
      );
  }
}
