import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Alert } from '../../ui/Alert';
import { usePortal } from '../PortalContext';

/**
 * §2 "Announcement banner": shown when the tenant enables it; tenant HTML (sanitized by
 * `portal build`), one of five variants, visible until the user closes it.
 */
export function AnnouncementBanner() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const [closed, setClosed] = useState(false);
  const announcement = config.tenant.announcement;
  if (closed || !announcement || !isFeatureOn(config.tenant, 'announcement')) return null;
  return (
    <div className="announcement">
      <Alert variant={announcement.variant} onClose={() => setClosed(true)} closeLabel={t('shell.closeBanner')}>
        <div dangerouslySetInnerHTML={{ __html: announcement.html }} />
      </Alert>
    </div>
  );
}
