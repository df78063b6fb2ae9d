import { useLocation } from 'react-router';
import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import type { ExternalNavigationLink } from '../../../schemas/generated/tenant';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { NotFound } from '../../core/NotFound';
import { usePortal } from '../../core/PortalContext';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { linkForPath, linkText, USER_ID_PLACEHOLDER, withUserId } from './externalLinks';

/**
 * The catch-all (portal-core.md §2): a path equal to an external navigation link's text embeds its
 * URL in a frame; `-suid-` in the URL is replaced by the user id from GET /api/user-id when the
 * user is logged in. Any other path shows 'Page not found'.
 *
 * Only a link the tenant shows inside the portal (`showInIframe`) is framed: the others are pages
 * that open outside it (§2 "each opened externally … or shown inside the portal"), and many of
 * them refuse to be framed. Their path (typed, or an old bookmark) gets a page that opens the link
 * in a new tab instead of a broken frame.
 */
export default function ExternalPageScreen() {
  const { config } = usePortal();
  const location = useLocation();
  const link = linkForPath(config.tenant.externalNavigationLinks, location.pathname);
  if (!link) return <NotFound />;
  if (!link.showInIframe) return <OutsidePage link={link} />;
  return <EmbeddedPage link={link} />;
}

/**
 * A link that is not shown inside the portal: its name and the way to it, in a new tab where the
 * tenant opens it in one (`openInNewTab`, as the menu does), else in this one.
 */
function OutsidePage({ link }: { link: ExternalNavigationLink }) {
  const { t, i18n } = useTranslation();
  const name = linkText(link, i18n.language);
  const newTab = Boolean(link.openInNewTab);
  return (
    <section className="notice-page external-page-outside" aria-labelledby="external-page-title">
      <h1 id="external-page-title">{name}</h1>
      <p>{t(newTab ? 'external-page.outsideText' : 'external-page.outsideTextHere', { name })}</p>
      <p>
        <a
          className="button"
          href={withUserId(link.url, undefined)}
          {...(newTab ? { target: '_blank', rel: 'noreferrer' } : {})}
        >
          {t(newTab ? 'external-page.openInNewTab' : 'external-page.open', { name })}
        </a>
      </p>
    </section>
  );
}

/** The link's page; `-suid-` is filled in only for a logged-in user (§2), whose id is asked first. */
function EmbeddedPage({ link }: { link: ExternalNavigationLink }) {
  const auth = useAtomValue(authStateAtom);
  if (!link.url.includes(USER_ID_PLACEHOLDER) || !isLoggedIn(auth))
    return <EmbeddedFrame link={link} src={withUserId(link.url, undefined)} />;
  return <EmbeddedPageWithUserId link={link} session={auth.accessToken ?? ''} />;
}

function EmbeddedPageWithUserId({ link, session }: { link: ExternalNavigationLink; session: string }) {
  const userId = useResource(`user-id:${session}`, (api) =>
    api.get<{ userId: string }>('/user-id').then((body) => body.userId),
  );
  return (
    <ResourceView resource={userId} errorKey="shell.genericError">
      {(id) => <EmbeddedFrame link={link} src={withUserId(link.url, id)} />}
    </ResourceView>
  );
}

function EmbeddedFrame({ link, src }: { link: ExternalNavigationLink; src: string }) {
  const { t, i18n } = useTranslation();
  const name = linkText(link, i18n.language);
  return (
    <section className="external-page" aria-labelledby="external-page-title">
      <h1 id="external-page-title" className="visually-hidden">
        {name}
      </h1>
      <iframe className="external-frame" src={src} title={t('external-page.frameTitle', { name })} />
      <p className="muted">
        <a href={src} target="_blank" rel="noreferrer">
          {t('external-page.openInNewTab', { name })}
        </a>
      </p>
    </section>
  );
}
