import { useState } from 'react';
import { useTranslation } from '../translation';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Alert } from '../../ui/Alert';
import { localized } from '../../ui/localized';
import { usePortal } from '../PortalContext';

/**
 * §2 "Announcement banner": shown when the tenant enables it; tenant HTML (sanitized by
 * `portal build`), one of five variants, visible until the user closes it.
 */
/** The language the banner's HTML is written in (the screen's, or the other one when the tenant gave only that). */
function announcementLang(html: { 'de-DE'?: string; 'en-GB'?: string }, language: string): string {
  const wanted = language.startsWith('de') ? 'de-DE' : 'en-GB';
  return html[wanted] ? wanted : wanted === 'de-DE' ? 'en-GB' : 'de-DE';
}

export function AnnouncementBanner() {
  const { config } = usePortal();
  const { t, i18n } = useTranslation();
  const [closed, setClosed] = useState(false);
  const announcement = config.tenant.announcement;
  if (closed || !announcement || !isFeatureOn(config.tenant, 'announcement')) return null;
  return (
    <div className="announcement">
      <Alert variant={announcement.variant} onClose={() => setClosed(true)} closeLabel={t('shell.closeBanner')}>
        {/* In the screen's language (issue 14, finding 4). */}
        <div lang={announcementLang(announcement.html, i18n.language)} dangerouslySetInnerHTML={{ __html: localized(announcement.html, i18n.language) }} />
      </Alert>
    </div>
  );
}
