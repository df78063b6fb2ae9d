import { useTranslation } from '../core/translation';
import { Dialog } from '../ui/Dialog';
import { DOWNLOAD_OUTCOMES, type DownloadOutcome, type OutcomeTexts } from './outcomes';

/** The dialog of an action's named outcome (outcomes.ts): its title over its text, and close. */
export function OutcomeDialog({
  texts,
  values,
  onClose,
}: {
  texts: OutcomeTexts;
  values?: Record<string, string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
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
      <p>{t(texts.textKey, values)}</p>
    </Dialog>
  );
}

/** §2 dialogs "download error" and "download started", by the download's named outcome. */
export function DownloadDialogs({
  outcome,
  onClose,
}: {
  outcome: DownloadOutcome | null;
  onClose: () => void;
}) {
  if (!outcome) return null;
  return <OutcomeDialog texts={DOWNLOAD_OUTCOMES[outcome]} onClose={onClose} />;
}
