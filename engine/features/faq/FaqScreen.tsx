import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import type { FaqEntry } from '../../../schemas/generated/tenant';
import { authStateAtom } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { localized } from '../../ui/localized';
import { categoryFilter, groupFaq, GENERAL_CATEGORY } from './faqModel';

/** §9 "FAQ anchor scroll delay". */
const ANCHOR_DELAY_MS = 500;

/**
 * /faq (portal-core.md §2 "FAQ"): title, heading (tenant HTML or the default), entries grouped by
 * category in an accordion, the `category` query filter, and `#<entry id>` opening and scrolling
 * to its entry after 500 ms. Entries come from GET /api/faq, which sends anonymous visitors only
 * the public ones (§6); the page itself carries none.
 */
export default function FaqScreen() {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const auth = useAtomValue(authStateAtom);
  const location = useLocation();
  const faq = config.tenant.faq;
  const language = i18n.language;
  // Asked again when the session changes: anonymous visitors get only the public entries (§6).
  const entries = useResource(`faq:${auth.accessToken ?? ''}`, (api) =>
    api.get<{ entries: FaqEntry[] }>('/faq').then((body) => body.entries),
  );
  const state = entries.state;

  const anchor = decodeHash(location.hash);
  useEffect(() => {
    if (state.status !== 'ready' || !anchor) return;
    const timer = window.setTimeout(() => {
      // The entry's key (portal-core.md §2), or the entry element's own id, as a link copied from
      // the page's markup names it.
      const element = document.getElementById(`faq-${anchor}`) ?? document.getElementById(anchor);
      if (element instanceof HTMLDetailsElement) {
        element.open = true;
        element.scrollIntoView({ behavior: 'smooth', block: 'start' });
        element.querySelector('summary')?.focus({ preventScroll: true });
      }
    }, ANCHOR_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.status, anchor]);

  const headingHtml = localized(faq.headingHtml, language);
  const groupsOf = (list: FaqEntry[]) =>
    groupFaq(list, faq.categories ?? [], categoryFilter(location.search));

  return (
    <section className="faq" aria-labelledby="faq-title">
      <h1 id="faq-title">{t('faq.title')}</h1>
      {headingHtml ? (
        // Tenant HTML, sanitized at build time (tenant/page/sanitizeTenantHtml.ts).
        <div className="faq-heading tenant-html" dangerouslySetInnerHTML={{ __html: headingHtml }} />
      ) : (
        <p className="faq-heading">{t('faq.defaultHeading')}</p>
      )}
      <ResourceView
        resource={entries}
        errorKey="faq.loadingError"
        emptyKey="faq.empty"
        isEmpty={(list) => groupsOf(list).length === 0}
      >
        {(list) =>
          groupsOf(list).map((group) => (
            <section key={group.id} className="faq-category" aria-labelledby={`faq-category-${group.id}`}>
              <h2 id={`faq-category-${group.id}`}>
                {group.category
                  ? localized(group.category.title, language)
                  : group.id === GENERAL_CATEGORY
                    ? t('faq.generalCategory')
                    : group.id}
              </h2>
              {group.entries.map((entry) => (
                <details key={entry.id} id={`faq-${entry.id}`} className="faq-entry">
                  <summary>{localized(entry.title, language)}</summary>
                  <div
                    className="faq-answer tenant-html"
                    dangerouslySetInnerHTML={{ __html: localized(entry.content, language) }}
                  />
                </details>
              ))}
            </section>
          ))
        }
      </ResourceView>
    </section>
  );
}

/** The entry id of `#anchor`; a malformed escape in a hand-typed URL is no entry, not a crash. */
function decodeHash(hash: string): string {
  try {
    return decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    return '';
  }
}
