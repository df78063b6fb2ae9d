import { useTranslation } from '../core/translation';
import { useNavigate } from 'react-router';
import { useRouteServed } from '../core/featureRoutes';
import { FallbackContact } from '../core/FallbackContact';
import { href, ROUTES } from '../domain/routeRefs';
import { Dialog } from './Dialog';

/**
 * The generic error dialog of portal-core.md §8: "an error occurred, try again or contact customer
 * service"; close, and to contact (/contact). Where the tenant offers no contact form, the dialog
 * names its fallback e-mail and phone instead of a button to a page that says the feature is off.
 */
export function ErrorDialog({
  message,
  title,
  onClose,
}: {
  message?: string;
  title?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const contactServed = useRouteServed(ROUTES.contact);
  return (
    <Dialog
      title={title ?? t('shell.errorTitle')}
      variant="error"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('shell.close')}
          </button>
          {contactServed && (
            <button type="button" className="button" onClick={() => navigate(href(ROUTES.contact))}>
              {t('shell.toContact')}
            </button>
          )}
        </>
      }
    >
      <p>{message ?? t('shell.genericError')}</p>
      {!contactServed && <FallbackContact />}
    </Dialog>
  );
}
