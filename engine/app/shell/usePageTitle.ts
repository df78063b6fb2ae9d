import { useEffect } from 'react';
import { useTranslation } from '../../core/translation';

/**
 * WCAG 2.4.2 "Page Titled": the tab title names the page, then the portal ("Meine Bestellungen –
 * Stadtkurier"). Every screen already has exactly one h1 in the main region in the user's
 * language, so the title follows it — as Gatsby's route announcer does — and a new screen, a
 * language switch or a heading that arrives with its data (a subscription's name) needs no wiring.
 * A screen with views or sections of its own under one h1 (the login page's forgot, register and
 * reset forms; the customer club's favourites, history and a reward) marks the heading of the one
 * shown with `data-page-section`, which leads the title ("Passwort vergessen – Anmelden –
 * Stadtkurier"), so no two of them share a tab title.
 * The page's description (`<meta name="description">`, which the built page carries in the
 * tenant's default language) follows the same way: the page's title, then the portal's description
 * in the user's language (`shell.pageMetaDescription`, `shell.metaDescription`, both a tenant may
 * override per locale).
 */
export function usePageTitle(portalName: string) {
  const { t } = useTranslation();
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return undefined;
    const update = () => {
      const heading = main.querySelector('h1')?.textContent?.trim();
      const section = main.querySelector('[data-page-section]')?.textContent?.trim();
      const page = heading && section ? t('shell.sectionTitle', { section, page: heading }) : heading;
      const ownPage = page && page !== portalName ? page : undefined;
      const title = ownPage ? t('shell.pageTitle', { page: ownPage, name: portalName }) : portalName;
      if (document.title !== title) document.title = title;
      const portalDescription = t('shell.metaDescription', { name: portalName });
      describePage(
        ownPage
          ? t('shell.pageMetaDescription', { page: ownPage, description: portalDescription })
          : portalDescription,
      );
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [portalName, t]);
}

function describePage(description: string) {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  if (meta.content !== description) meta.content = description;
}
