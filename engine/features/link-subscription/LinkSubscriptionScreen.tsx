import { dataOf, useResource } from '../../account/resource';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { settingIn } from '../../domain/language';
import { useNavigate } from 'react-router';
import { useAtomValue, useSetAtom } from 'jotai';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Publication } from '../../../schemas/generated/subscription-page';
import type { LinkSubscriptionResult } from '../../../schemas/generated/link-subscription-result';
import { linkOutcomeKey, linkOutcomeOf, type LinkOutcome } from './linkOutcomes';
import { ApiError } from '../../core/apiClient';
import { tooManyText } from '../../core/tooManyText';
import { isRateLimited } from '../../domain/retryAfter';
import { authStateAtom } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { subscriptionsAtom, resetSubscriptions } from '../../core/subscriptionsStore';
import { ORDER_NUMBER_MAX_LENGTH, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import { linkFieldErrors, linkFields, type LinkField } from '../../domain/linkSubscription';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { InputField, RadioGroup } from '../../ui/fields';
import { useFormState } from '../../ui/formState';
import { useTenantSettings } from '../../account/capabilityContext';
import { useNewSubscriptionFlag } from '../../account/newSubscription';

interface Values {
  publication: string;
  orderNumber: string;
  bpNumber: string;
  lastName: string;
  zipcode: string;
  gift: '' | 'yes' | 'no';
  email: string;
}

const EMPTY: Values = {
  publication: '',
  orderNumber: '',
  bpNumber: '',
  lastName: '',
  zipcode: '',
  gift: '',
  email: '',
};

/** /link-subscription (portal-core.md §2, §4 result statuses, §5 field rules, §8 messages). */
export default function LinkSubscriptionScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { api, config } = usePortal();
  const settings = useTenantSettings();
  const user = useAtomValue(authStateAtom).user;
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const { mark: markNewSubscription } = useNewSubscriptionFlag();
  const [byBp, setByBp] = useState(false);
  const form = useFormState<Values, LinkField>(EMPTY);
  const { values, errors, setErrors } = form;
  const [result, setResult] = useState<LinkSubscriptionResult | null>(null);
  const [emailShown, setEmailShown] = useState(false);
  const [linked, setLinked] = useState<Subscription | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [tooMany, setTooMany] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const fields = linkFields(settings, byBp);
  // The publication choice, when the tenant asks for one; without the list the field stays empty.
  const publicationList = useResource<Publication[]>(`publications?${fields.publication}`, (client) =>
    fields.publication ? client.get<Publication[]>('/publications') : Promise.resolve([]),
  );
  const publications = dataOf(publicationList.state) ?? [];

  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) =>
      form.set(key, value);
  const preferredRole = fields.giftQuestion
    ? values.gift === 'yes'
      ? 'WE'
      : values.gift === 'no'
        ? 'AG'
        : undefined
    : settings.linkSubscription?.preferredRole;

  function payload(email?: string, confirmToken?: string) {
    return {
      ...(fields.publication && values.publication ? { publication: values.publication } : {}),
      ...(fields.orderNumber ? { orderNumber: values.orderNumber.trim() } : {}),
      ...(fields.bpNumber ? { bpNumber: values.bpNumber.trim() } : {}),
      ...(fields.lastName ? { lastName: values.lastName.trim() } : {}),
      zipcode: values.zipcode.trim(),
      ...(preferredRole ? { preferredRole } : {}),
      ...(email ? { email } : {}),
      ...(confirmToken ? { confirmToken } : {}),
    };
  }

  async function submit(email?: string, confirmToken?: string) {
    setSending(true);
    setTooMany(null);
    try {
      const subscription = await api.post<Subscription | null>(
        '/subscriptions',
        payload(email, confirmToken),
      );
      // §4: the order number is stored and the new-subscription flag drives the menu badge.
      markNewSubscription(subscription?.orderNumber ?? null);
      setSubscriptions(resetSubscriptions);
      setResult(null);
      setLinked(subscription);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const details = (error.details ?? { status: 'unknown' }) as LinkSubscriptionResult;
        setResult(details);
        if (details.status === 'email_required') {
          // The server puts the account's own (proved) address on record, never a typed one: a
          // typed address proves nothing.
          setEmailShown(true);
          form.set('email', user?.email ?? '');
        }
      } else if (isRateLimited(error)) {
        // A 429 is no "something went wrong": it says when to try again.
        setTooMany(tooManyText(t, error));
      } else {
        setFailed(true);
      }
    } finally {
      setSending(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = linkFieldErrors(settings, {
      ...payload(),
      byBpNumber: byBp,
      email: emailShown ? values.email : undefined,
    });
    const messages: Partial<Record<LinkField, string>> = {};
    for (const [field, code] of Object.entries(found))
      messages[field as LinkField] = t(`link-subscription.error.${code}`);
    setErrors(messages);
    if (Object.keys(messages).length > 0) return;
    void submit(emailShown ? values.email.trim() : undefined);
  }

  const outcome = result ? linkOutcomeOf(result) : null;
  const message =
    result && outcome && outcome !== 'link:confirm_email' ? resultMessage(result, outcome) : null;
  function resultMessage(
    r: LinkSubscriptionResult,
    named: Exclude<LinkOutcome, 'link:confirm_email'>,
  ): string {
    const vars = {
      orderNumber: r.orderNumber ?? values.orderNumber,
      maskedEmail: r.maskedEmail ?? '',
      bpNumber: r.bpNumber ?? values.bpNumber,
      ssoId: r.ssoId ?? '',
    };
    return t(linkOutcomeKey(named), vars);
  }

  return (
    <section className="link-subscription" aria-labelledby="link-title">
      <h1 id="link-title">{t('link-subscription.heading')}</h1>
      <p>{t('link-subscription.intro')}</p>
      {settings.linkSubscription?.allowBpNumber && (
        <RadioGroup
          legend={t('link-subscription.methodLegend')}
          name="method"
          options={[
            { value: 'orderNumber', label: t('link-subscription.byOrderNumber') },
            { value: 'bpNumber', label: t('link-subscription.byBpNumber') },
          ]}
          value={byBp ? 'bpNumber' : 'orderNumber'}
          onChange={(method) => setByBp(method === 'bpNumber')}
        />
      )}
      <form noValidate onSubmit={onSubmit} className="link-form">
        {fields.publication && (
          <div className="form-field">
            <label htmlFor="link-publication">
              {t('link-subscription.publication')}
              <span aria-hidden="true"> *</span>
            </label>
            <select
              id="link-publication"
              required
              value={values.publication}
              aria-invalid={errors.publication ? true : undefined}
              aria-describedby={errors.publication ? 'link-publication-error' : undefined}
              onChange={(e) => set('publication')(e.target.value)}
            >
              <option value="">{t('link-subscription.choosePublication')}</option>
              {publications.map((p) => (
                <option key={p.publication} value={p.publication}>
                  {p.description}
                </option>
              ))}
            </select>
            {errors.publication && (
              <p id="link-publication-error" className="form-error">
                {errors.publication}
              </p>
            )}
          </div>
        )}
        {fields.orderNumber && (
          <InputField
            label={t('link-subscription.orderNumber')}
            required
            inputMode="numeric"
            autoComplete="off"
            maxChars={ORDER_NUMBER_MAX_LENGTH}
            value={values.orderNumber}
            // §5: digits only; never cut — more than 10 stay and the field says so.
            onChange={(e) => set('orderNumber')(e.target.value.replace(/\D/g, ''))}
            error={errors.orderNumber}
          />
        )}
        {fields.orderNumber &&
          config.tenant &&
          settingIn(settings.orderNumberExampleImageUrl, i18n.language) && (
            // The image in the screen's language when the tenant gives one per locale.
            <img
              className="order-number-example"
              src={settingIn(settings.orderNumberExampleImageUrl, i18n.language)}
              alt={t('link-subscription.orderNumberExample')}
            />
          )}
        {fields.bpNumber && (
          <InputField
            label={t('link-subscription.bpNumber')}
            required
            inputMode="numeric"
            maxChars={10}
            value={values.bpNumber}
            onChange={(e) => set('bpNumber')(e.target.value.replace(/\D/g, ''))}
            error={errors.bpNumber}
          />
        )}
        {fields.lastName && (
          <InputField
            label={t('link-subscription.lastName')}
            required
            autoComplete="family-name"
            value={values.lastName}
            onChange={(e) => set('lastName')(e.target.value)}
            error={errors.lastName}
          />
        )}
        <InputField
          label={t('link-subscription.zipcode')}
          required
          autoComplete="postal-code"
          maxChars={ZIP_CODE_MAX_LENGTH}
          value={values.zipcode}
          onChange={(e) => set('zipcode')(e.target.value)}
          error={errors.zipcode}
        />
        {fields.giftQuestion && (
          <RadioGroup
            legend={t('link-subscription.giftQuestion')}
            required
            name="gift"
            options={[
              { value: 'yes', label: t('link-subscription.giftYes') },
              { value: 'no', label: t('link-subscription.giftNo') },
            ]}
            value={values.gift}
            onChange={set('gift')}
            error={errors.preferredRole}
          />
        )}
        {emailShown && (
          <InputField
            label={t('link-subscription.email')}
            type="email"
            required
            autoComplete="email"
            readOnly
            value={values.email}
            error={errors.email}
          />
        )}
        {message && (
          <Alert variant={result?.status === 'email_required' ? 'info' : 'error'}>
            <p>{message}</p>
            {result?.status === 'both_found_bp' && (
              <button type="button" className="button button-secondary" onClick={() => navigate('/contact')}>
                {t('shell.toContact')}
              </button>
            )}
          </Alert>
        )}
        {tooMany && (
          <Alert variant="error">
            <p>{tooMany}</p>
          </Alert>
        )}
        <div className="form-actions">
          <button type="submit" className="button" disabled={sending}>
            {t('link-subscription.submit')}
          </button>
        </div>
      </form>

      {result?.status === 'confirm_email' && (
        <Dialog
          title={t('link-subscription.confirmTitle')}
          onClose={() => setResult(null)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setResult(null)}>
                {t('link-subscription.confirmAbort')}
              </button>
              <button
                type="button"
                className="button"
                disabled={sending}
                onClick={() => void submit(undefined, result.confirmToken)}
              >
                {t('link-subscription.confirmYes')}
              </button>
            </>
          }
        >
          <p>{t('link-subscription.confirmText', { maskedEmail: result.maskedEmail })}</p>
        </Dialog>
      )}
      {linked !== undefined && (
        <Dialog
          title={t('link-subscription.successTitle')}
          variant="success"
          onClose={() => navigate('/orders')}
          actions={
            <button type="button" className="button" onClick={() => navigate('/orders')}>
              {t('link-subscription.toOrders')}
            </button>
          }
        >
          <p>
            {linked
              ? t('link-subscription.successText', {
                  title: linked.displayName,
                  orderNumber: linked.orderNumber,
                })
              : t('link-subscription.successTextBp')}
          </p>
        </Dialog>
      )}
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </section>
  );
}
