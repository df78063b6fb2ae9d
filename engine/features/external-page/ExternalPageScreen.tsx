import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import type { ExternalNavigationLink } from '../../../schemas/generated/tenant';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { NotFound } from '../../core/NotFound';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { linkForPath, USER_ID_PLACEHOLDER, withUserId } from './externalLinks';

/**
 * The catch-all (portal-core.md §2): a path equal to an external navigation link's text embeds its
 * URL in a frame; `-suid-` in the URL is replaced by the user id from GET /api/user-id when the
 * user is logged in. Any other path shows 'Page not found'.
 */
export default function ExternalPageScreen() {
  const { config } = usePortal();
  const location = useLocation();
  const links = (config.tenant as unknown as { externalNavigationLinks?: ExternalNavigationLink[] }).externalNavigationLinks ?? [];
  const link = linkForPath(links, location.pathname);
  if (!link) return <NotFound />;
  return <EmbeddedPage link={link} />;
}

function EmbeddedPage({ link }: { link: ExternalNavigationLink }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const auth = useAtomValue(authStateAtom);
  const needsId = link.url.includes(USER_ID_PLACEHOLDER) && isLoggedIn(auth);
  const [userId, setUserId] = useState<{ status: 'loading' | 'failed' } | { status: 'ready'; id: string }>({ status: 'loading' });

  useEffect(() => {
    if (!needsId) return;
    let cancelled = false;
    api
      .get<{ userId: string }>('/user-id')
      .then((body) => !cancelled && setUserId({ status: 'ready', id: body.userId }))
      .catch(() => !cancelled && setUserId({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [api, needsId, auth.accessToken]);

  if (needsId && userId.status === 'loading') return <Loading />;
  if (needsId && userId.status === 'failed') return <Alert variant="error">{t('shell.genericError')}</Alert>;
  const src = withUserId(link.url, needsId && userId.status === 'ready' ? userId.id : undefined);
  return (
    <section className="external-page" aria-labelledby="external-page-title">
      <h1 id="external-page-title" className="visually-hidden">
        {link.text}
      </h1>
      <iframe className="external-frame" src={src} title={t('external-page.frameTitle', { name: link.text })} />
      <p className="muted">
        <a href={src} target="_blank" rel="noreferrer">
          {t('external-page.openInNewTab', { name: link.text })}
        </a>
      </p>
    </section>
  );
}
