import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { visibleActivities } from '../../domain/contactRules';
import { Alert } from '../../ui/Alert';
import { FallbackContact } from '../../core/FallbackContact';
import { localized } from '../../ui/localized';
import { ContactForm } from './ContactForm';
import type { ContactValues } from './contactFormState';
import { LinkedPageLogin } from './LinkedPageLogin';
import { SelectField } from '../../ui/fields';
import type { PortalTenant } from '../../domain/portalConfig';

/** The tenant settings the contact screens read (schemas/tenant.schema.json, defaults applied). */
export type ContactTenant = Pick<
  PortalTenant,
  'features' | 'publicationBlacklists' | 'contactForm' | 'salutations' | 'contact'
>;

/**
 * /contact (portal-core.md §2 "Contact"): heading, required-fields hint, the authenticated or the
 * anonymous form; an alert with the fallback e-mail and phone when contact is unsupported (no
 * activity for this visitor); the tenant's custom script. Query parameters: subscriptionId and
 * activity preselect, showMessageInput=true shows the message field even where the activity hides
 * it, linkedPage=false skips the linked-page login step (§4) and composes a message directly.
 */
export default function ContactScreen() {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const auth = useAtomValue(authStateAtom);
  const location = useLocation();
  const tenant: ContactTenant = config.tenant;
  const query = new URLSearchParams(location.search);
  const loggedIn = isLoggedIn(auth);
  const activities = useMemo(
    () => visibleActivities(tenant.contactForm?.activities ?? [], loggedIn),
    [tenant, loggedIn],
  );
  const initialActivity = activities.find((a) => a.activity === query.get('activity'))?.activity ?? '';
  const [activityCode, setActivityCode] = useState(initialActivity);
  // What was typed survives a change of topic (the form starts anew for each topic).
  const typed = useRef<ContactValues | undefined>(undefined);
  const [composing, setComposing] = useState(query.get('linkedPage') === 'false');
  const activity = activities.find((a) => a.activity === activityCode);
  const showMessageInput = query.get('showMessageInput') === 'true';
  const scriptUrl = tenant.contactForm?.customScriptUrl;

  // §2 "an optional tenant custom script is injected". The page's Content-Security-Policy allows
  // this one URL while the contact-form feature is on (contactScriptSource in server/http/securityHeaders.ts).
  useEffect(() => {
    if (!scriptUrl) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.dataset.portalContactScript = 'true';
    document.body.appendChild(script);
    return () => script.remove();
  }, [scriptUrl]);

  useEffect(() => setComposing(query.get('linkedPage') === 'false'), [activityCode]); // eslint-disable-line react-hooks/exhaustive-deps -- a new activity resets the form, a query change alone does not

  if (activities.length === 0) {
    return (
      <section className="contact" aria-labelledby="contact-title">
        <h1 id="contact-title">{t('contact.heading')}</h1>
        <Alert variant="warning">
          <p>{t('contact.unsupported')}</p>
          <FallbackContact />
        </Alert>
      </section>
    );
  }

  const linkedPage = activity?.linkedPage;
  const withReturn = (page: string) => `${page}${page.includes('?') ? '&' : '?'}returnTo=contact`;
  return (
    <section className="contact" aria-labelledby="contact-title">
      <h1 id="contact-title">{t('contact.heading')}</h1>
      <p>{t(loggedIn ? 'contact.introAuthenticated' : 'contact.introAnonymous')}</p>
      <p className="muted">{t('contact.requiredHint')}</p>
      <SelectField
        label={t('contact.activity')}
        required
        value={activityCode}
        onChange={(e) => setActivityCode(e.target.value)}
      >
        <option value="">{t('contact.activityPlaceholder')}</option>
        {activities.map((a) => (
          <option key={a.activity} value={a.activity}>
            {localized(a.name, i18n.language)}
          </option>
        ))}
      </SelectField>
      {activity?.infoMessage && (
        <Alert variant={activity.infoMessageType ?? 'info'}>
          {/* Tenant HTML, sanitized at build time. */}
          <div
            className="tenant-html"
            dangerouslySetInnerHTML={{ __html: localized(activity.infoMessage, i18n.language) }}
          />
        </Alert>
      )}
      {activity && linkedPage && !composing && !loggedIn && (
        <LinkedPageLogin
          key={activity.activity}
          activity={activity.activity}
          onCompose={() => setComposing(true)}
        />
      )}
      {activity && linkedPage && !composing && loggedIn && (
        <div className="form-actions">
          <Link className="button" to={withReturn(linkedPage)}>
            {t('contact.toLinkedPage')}
          </Link>
          <button type="button" className="button button-secondary" onClick={() => setComposing(true)}>
            {t('contact.composeInstead')}
          </button>
        </div>
      )}
      {activity && (!linkedPage || composing) && (
        <ContactForm
          key={activity.activity}
          activity={activity}
          tenant={tenant}
          loggedIn={loggedIn}
          showMessageInput={showMessageInput}
          preselectedSubscription={query.get('subscriptionId') ?? ''}
          typed={typed}
        />
      )}
    </section>
  );
}
