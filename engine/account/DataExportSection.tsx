import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { tooManyText } from '../../core/tooManyText';
import { ApiError } from '../../domain/apiError';
import { Alert } from '../../ui/Alert';
import { ssoProfileApi } from './ssoProfileApi';

type Notice = { variant: 'success' | 'error'; text: string } | null;

/**
 * "Download my data" (issue 26) on the account details page, where a subscriber looks for what the
 * account holds: one button asks for the export; the server mails a link, which opens this page with
 * `dataExport=<token>` (the `token` prop). The ZIP is then fetched through the API client — with
 * this session, which the server requires beside the token — after a click, so the browser treats
 * the save as the subscriber's own action.
 */
export function DataExportSection({ token, onTokenDone }: { token: string | null; onTokenDone: () => void }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  async function ask() {
    setNotice(null);
    setBusy(true);
    try {
      await ssoProfileApi(api).requestDataExport();
      setNotice({ variant: 'success', text: t('sso-profile-page.dataExport.preparing') });
    } catch (error) {
      setNotice({
        variant: 'error',
        text:
          error instanceof ApiError && error.status === 429
            ? tooManyText(t, error, t('sso-profile-page.dataExport.tooMany'))
            : t('sso-profile-page.dataExport.error'),
      });
    } finally {
      setBusy(false);
    }
  }

  async function download(linkToken: string) {
    setNotice(null);
    setBusy(true);
    try {
      const { blob, fileName } = await ssoProfileApi(api).downloadDataExport(linkToken);
      const objectUrl = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = objectUrl;
      anchor.download = fileName ?? 'data.zip';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
      setNotice({ variant: 'success', text: t('sso-profile-page.dataExport.downloaded') });
      onTokenDone();
    } catch (error) {
      setNotice({
        variant: 'error',
        text:
          error instanceof ApiError && error.status === 404
            ? t('sso-profile-page.dataExport.linkInvalid')
            : t('sso-profile-page.dataExport.error'),
      });
      if (error instanceof ApiError && error.status === 404) onTokenDone();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card sso-profile-section" role="group" aria-labelledby="sso-data-export-title">
      <h2 id="sso-data-export-title">{t('sso-profile-page.dataExport.heading')}</h2>
      {notice && (
        <Alert variant={notice.variant} onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
          <p>{notice.text}</p>
        </Alert>
      )}
      {token ? (
        <>
          <p>{t('sso-profile-page.dataExport.ready')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={busy} onClick={() => void download(token)}>
              {t('sso-profile-page.dataExport.download')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>{t('sso-profile-page.dataExport.intro')}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => void ask()}
            >
              {t('sso-profile-page.dataExport.button')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
