import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { CompensationAnswer } from '../../../schemas/generated/account-changes';
import { useTenantSettings } from '../../account/capabilityContext';
import { DownloadDialogs } from '../../account/DownloadDialogs';
import { openFile } from '../../account/useFileDownload';
import type { DownloadOutcome } from '../../account/outcomes';
import { usePortal } from '../../core/PortalContext';
import { Dialog } from '../../ui/Dialog';
import { formatDate } from '../../domain/dates';

/**
 * The success message per compensation (§9 "Replacement issue delivery: up to a week"): a download
 * is fetched with the session like every issue download (engine/account/useFileDownload.ts
 * openFile), shown in a new tab when the tenant's download config says so.
 */
export function ComplaintSuccessDialog({
  answer,
  onClose,
}: {
  answer: CompensationAnswer;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const settings = useTenantSettings();
  const [downloading, setDownloading] = useState(false);
  const [outcome, setOutcome] = useState<DownloadOutcome | null>(null);
  const option = answer.compensationOption;
  const by = answer.expectedBy ? formatDate(answer.expectedBy, i18n.language) : null;

  async function download() {
    if (!answer.url) return;
    // A tab opened synchronously keeps the browser's popup blocker out of the way.
    const tab = settings.download?.openInNewTab ? window.open('', '_blank') : null;
    setDownloading(true);
    try {
      await openFile(api, answer.url, tab);
      setOutcome('download:started');
    } catch {
      tab?.close();
      setOutcome('download:failed');
    } finally {
      setDownloading(false);
    }
  }

  if (outcome)
    return (
      <DownloadDialogs
        outcome={outcome}
        onClose={() => (outcome === 'download:started' ? onClose() : setOutcome(null))}
      />
    );
  return (
    <Dialog
      title={t('issue-complaint.successTitle')}
      variant="success"
      onClose={onClose}
      actions={
        <>
          <button
            type="button"
            className={option === 'download' && answer.url ? 'button button-secondary' : 'button'}
            onClick={onClose}
          >
            {t('shell.close')}
          </button>
          {option === 'download' && answer.url && (
            <button type="button" className="button" disabled={downloading} onClick={() => void download()}>
              {downloading ? t('account.downloadWaiting') : t('issue-complaint.download')}
            </button>
          )}
        </>
      }
    >
      <p>
        {by && option !== 'download'
          ? t(`issue-complaint.success.${option}By`, { date: by })
          : t(`issue-complaint.success.${option}`)}
      </p>
    </Dialog>
  );
}
