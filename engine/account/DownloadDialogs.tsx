import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog';
import type { DownloadOutcome } from './useFileDownload';

/** §2 dialogs "download error" and "download started". */
export function DownloadDialogs({ outcome, onClose }: { outcome: DownloadOutcome; onClose: () => void }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  const started = outcome === 'started';
  return (
    <Dialog
      title={t(started ? 'account.downloadStartedTitle' : 'account.downloadFailedTitle')}
      variant={started ? 'success' : 'error'}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shell.close')}
        </button>
      }
    >
      <p>{t(started ? 'account.downloadStarted' : 'account.downloadNotAvailable')}</p>
    </Dialog>
  );
}
