import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Alert } from '../../ui/Alert';
import { localized } from '../../ui/localized';
import { localeOfWords } from '../../domain/language';
import { usePortal } from '../../core/PortalContext';
import {
  announcementFingerprint,
  browserLocalStorage,
  rememberClosed,
  wasClosed,
} from './announcementMemory';

/**
 * §2 "Announcement banner": shown when the tenant enables it; tenant HTML (sanitized by
 * `portal build`), one of five variants, visible until the user closes it — and closed, it stays
 * closed after a reload, until the tenant publishes another announcement (./announcementMemory.ts).
 */
/** The language the banner's HTML is written in (the screen's, or another one when the tenant gave only that). */
function announcementLang(html: Parameters<typeof localeOfWords>[0], language: string): string {
  return localeOfWords(html, language) ?? language;
}

export function AnnouncementBanner() {
  const { config } = usePortal();
  const { t, i18n } = useTranslation();
  const announcement = config.tenant.announcement;
  // The fingerprint closed in this page: covers storage that cannot be reached, and a studio
  // preview whose announcement changes live shows the new one again.
  const [closedHere, setClosedHere] = useState<string | null>(null);
  if (!announcement || !isFeatureOn(config.tenant, 'announcement')) return null;
  if (
    closedHere === announcementFingerprint(announcement) ||
    wasClosed(browserLocalStorage(), config.tenant.id, announcement)
  )
    return null;
  const close = () => {
    rememberClosed(browserLocalStorage(), config.tenant.id, announcement);
    setClosedHere(announcementFingerprint(announcement));
  };
  return (
    <div className="announcement">
      <Alert variant={announcement.variant} onClose={close} closeLabel={t('shell.closeBanner')}>
        {/* In the screen's language, like every other text on it. */}
        <div
          lang={announcementLang(announcement.html, i18n.language)}
          dangerouslySetInnerHTML={{ __html: localized(announcement.html, i18n.language) }}
        />
      </Alert>
    </div>
  );
}
