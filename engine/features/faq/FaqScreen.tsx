import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import type { FaqConfig, FaqEntry } from '../../../schemas/generated/tenant';
import { authStateAtom } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { localized } from '../../ui/localized';
import { categoryFilter, groupFaq, GENERAL_CATEGORY } from './faqModel';

/** §9 "FAQ anchor scroll delay". */
const ANCHOR_DELAY_MS = 500;

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; entries: FaqEntry[] };

/**
 * /faq (portal-core.md §2 "FAQ"): title, heading (tenant HTML or the default), entries grouped by
 * category in an accordion, the `category` query filter, and `#<entry id>` opening and scrolling
 * to its entry after 500 ms. Entries come from GET /api/faq, which sends anonymous visitors only
 * the public ones (§6); the page itself carries none.
 */
export default function FaqScreen() {
  const { t, i18n } = useTranslation();
  const { api, config } = usePortal();
  const auth = useAtomValue(authStateAtom);
  const location = useLocation();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const faq = (config.tenant as unknown as { faq?: FaqConfig }).faq ?? {};
  const language = i18n.language;

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    api
      .get<{ entries: FaqEntry[] }>('/faq')
      .then((body) => !cancelled && setState({ status: 'ready', entries: body.entries }))
      .catch(() => !cancelled && setState({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [api, auth.accessToken, attempt]);

  const anchor = decodeHash(location.hash);
  useEffect(() => {
    if (state.status !== 'ready' || !anchor) return;
    const timer = window.setTimeout(() => {
      const element = document.getElementById(`faq-${anchor}`);
      if (element instanceof HTMLDetailsElement) {
        element.open = true;
        element.scrollIntoView({ behavior: 'smooth', block: 'start' });
        element.querySelector('summary')?.focus({ preventScroll: true });
      }
    }, ANCHOR_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state.status, anchor]);

  const headingHtml = localized(faq.headingHtml, language);
  const groups = state.status === 'ready' ? groupFaq(state.entries, faq.categories ?? [], categoryFilter(location.search)) : [];

  return (
    <section className="faq" aria-labelledby="faq-title">
      <h1 id="faq-title">{t('faq.title')}</h1>
      {headingHtml ? (
        // Tenant HTML, sanitized at build time (cli/build/sanitizeTenantHtml.ts).
        <div className="faq-heading tenant-html" dangerouslySetInnerHTML={{ __html: headingHtml }} />
      ) : (
        <p className="faq-heading">{t('faq.defaultHeading')}</p>
      )}
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && (
        <Alert variant="error">
          <p>{t('faq.loadingError')}</p>
          <button type="button" className="button button-secondary" onClick={() => setAttempt(attempt + 1)}>
            {t('shell.tryAgain')}
          </button>
        </Alert>
      )}
      {state.status === 'ready' && groups.length === 0 && <Alert variant="info">{t('faq.empty')}</Alert>}
      {groups.map((group) => (
        <section key={group.id} className="faq-category" aria-labelledby={`faq-category-${group.id}`}>
          <h2 id={`faq-category-${group.id}`}>
            {group.category ? localized(group.category.title, language) : group.id === GENERAL_CATEGORY ? t('faq.generalCategory') : group.id}
          </h2>
          {group.entries.map((entry) => (
            <details key={entry.id} id={`faq-${entry.id}`} className="faq-entry">
              <summary>{localized(entry.title, language)}</summary>
              <div className="faq-answer tenant-html" dangerouslySetInnerHTML={{ __html: localized(entry.content, language) }} />
            </details>
          ))}
        </section>
      ))}
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
