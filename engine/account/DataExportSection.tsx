import { useState } from 'react';
import { useTranslation } from '../core/translation';
import { usePortal } from '../core/PortalContext';
import { tooManyText } from '../core/tooManyText';
import { ApiError } from '../domain/apiError';
import { Alert } from '../ui/Alert';
import './dataExport.css';

type Notice = { variant: 'success' | 'error'; text: string } | null;

/**
 * What the ZIP holds, as a list in the screen's language: the parts every account has, and those of
 * the features this tenant offers (a portal without licences does not promise them; the ZIP has a
 * file for every part, empty where the portal keeps nothing).
 */
function exportContents(features: readonly string[], t: (key: string) => string, language: string): string {
  const parts = [
    'base',
    ...(features.includes('opt-ins') ? ['optIns'] : []),
    ...(features.includes('multi-user-licenses') ? ['licenses'] : []),
    ...(features.includes('e-card') ? ['eCards'] : []),
    ...(features.includes('loyalty-programme') ? ['club'] : []),
    ...(features.includes('contact-form') ? ['contact'] : []),
    'changes',
  ];
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(
    parts.map((part) => t(`account.dataExport.part.${part}`)),
  );
}

/**
 * "Download my data" (docs/subscribers.md "Download my data"), on the one screen engine/domain/dataExport.ts
 * names for the tenant (the account details page, else the customer data page), where a subscriber
 * looks for what the account holds: one button asks for the export; the server mails a link, which
 * opens that screen with `dataExport=<token>` (the `token` prop). The ZIP is then fetched through the API client — with
 * this session, which the server requires beside the token — after a click, so the browser treats
 * the save as the subscriber's own action.
 */
export function DataExportSection({ token, onTokenDone }: { token: string | null; onTokenDone: () => void }) {
  const { t, i18n } = useTranslation();
  const { api, config } = usePortal();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  async function ask() {
    setNotice(null);
    setBusy(true);
    try {
      await api.post<{ status: 'preparing'; message: string }>('/data-export');
      setNotice({ variant: 'success', text: t('account.dataExport.preparing') });
    } catch (error) {
      setNotice({
        variant: 'error',
        text:
          error instanceof ApiError && error.status === 429
            ? tooManyText(t, error, t('account.dataExport.tooMany'))
            : t('account.dataExport.error'),
      });
    } finally {
      setBusy(false);
    }
  }

  async function download(linkToken: string) {
    setNotice(null);
    setBusy(true);
    try {
      const { blob, fileName } = await api.getFile(
        `/data-export/download?token=${encodeURIComponent(linkToken)}`,
      );
      const objectUrl = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = objectUrl;
      anchor.download = fileName ?? 'data.zip';
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
      setNotice({ variant: 'success', text: t('account.dataExport.downloaded') });
      onTokenDone();
    } catch (error) {
      setNotice({
        variant: 'error',
        text:
          error instanceof ApiError && error.status === 404
            ? t('account.dataExport.linkInvalid')
            : t('account.dataExport.error'),
      });
      if (error instanceof ApiError && error.status === 404) onTokenDone();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card data-export-section" role="group" aria-labelledby="data-export-title">
      <h2 id="data-export-title">{t('account.dataExport.heading')}</h2>
      {notice && (
        <Alert variant={notice.variant} onClose={() => setNotice(null)} closeLabel={t('shell.close')}>
          <p>{notice.text}</p>
        </Alert>
      )}
      {token ? (
        <>
          <p>{t('account.dataExport.ready')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={busy} onClick={() => void download(token)}>
              {t('account.dataExport.download')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            {t('account.dataExport.intro', {
              contents: exportContents(config.tenant.features, t, i18n.language),
            })}
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => void ask()}
            >
              {t('account.dataExport.button')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
