import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog';
import { DOWNLOAD_OUTCOMES, type DownloadOutcome } from './outcomes';

/** §2 dialogs "download error" and "download started", by the download's named outcome. */
export function DownloadDialogs({ outcome, onClose }: { outcome: DownloadOutcome | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  const texts = DOWNLOAD_OUTCOMES[outcome];
  return (
    <Dialog
      title={t(texts.titleKey)}
      variant={texts.tone}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shell.close')}
        </button>
      }
    >
      <p>{t(texts.textKey)}</p>
    </Dialog>
  );
}
