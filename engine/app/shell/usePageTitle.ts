import { useEffect } from 'react';
import { useTranslation } from '../../core/translation';

/**
 * WCAG 2.4.2 "Page Titled": the tab title names the page, then the portal ("Meine Bestellungen –
 * Stadtkurier"). Every screen already has exactly one h1 in the main region in the user's
 * language, so the title follows it — as Gatsby's route announcer does — and a new screen, a
 * language switch or a heading that arrives with its data (a subscription's name) needs no wiring.
 */
export function usePageTitle(portalName: string) {
  const { t } = useTranslation();
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return undefined;
    const update = () => {
      const page = main.querySelector('h1')?.textContent?.trim();
      const title =
        page && page !== portalName ? t('shell.pageTitle', { page, name: portalName }) : portalName;
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [portalName, t]);
}
