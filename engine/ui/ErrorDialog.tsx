import { useTranslation } from '../core/translation';
import { useNavigate } from 'react-router';
import { Dialog } from './Dialog';

/**
 * The generic error dialog of portal-core.md §8: "an error occurred, try again or contact customer
 * service"; close, and to contact (/contact).
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
          <button type="button" className="button" onClick={() => navigate('/contact')}>
            {t('shell.toContact')}
          </button>
        </>
      }
    >
      <p>{message ?? t('shell.genericError')}</p>
    </Dialog>
  );
}
