import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation, useNavigate } from 'react-router';
import { useAtomValue, useSetAtom } from 'jotai';
import type { BulkRenewalCandidate } from '../../../schemas/generated/offers';
import { useTenantSettings } from '../../account/capabilityContext';
import { entryMessage, entryResultOf, type EntryResult } from '../../account/offers/entryOutcomes';
import { OfferList } from '../../account/offers/OfferList';
import { OpenPayments } from '../../account/offers/OpenPayments';
import { OfferSuccessDialog } from '../../account/offers/OfferSuccess';
import { offersApi } from '../../account/offers/offersApi';
import { EntryFormActions } from '../../account/offers/EntryFormActions';
import { PaymentDialogs } from '../../account/offers/PaymentDialogs';
import { isPaymentBusy, usePaymentFlow } from '../../account/offers/usePaymentFlow';
import { refusedOfferOutcome } from '../../account/offers/paymentOutcomes';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { ApiError } from '../../core/apiClient';
import { authStateAtom, isLoggedIn, scopeOf } from '../../core/authState';
import { mayCall } from '../../domain/sessionScope';
import { FeatureDisabled } from '../../core/FeatureDisabled';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { resetSubscriptions, subscriptionsAtom, useSubscriptions } from '../../core/subscriptionsStore';
import {
  BULK_LOGIN_LIMITS,
  bulkLoginErrors,
  bulkSelection,
  bulkSelectionKey,
  hasPaymentConflict,
  isBulkRenewalSubscription,
  type BulkLoginInput,
} from '../../domain/offers';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { Loading } from '../../ui/Loading';
import { portalLocale } from '../../domain/language';

/**
 * /bulk-renewal (account-flows.md §2 "Bulk renewal", §5, §6, §8): only when the tenant offers it
 * (renewal.bulkRenewal), else the feature-disabled notice. Anonymous visitors ask for a sign-in
 * link with e-mail, last name and zip code; signed-in users choose an offer (or none) for each
 * subscription they receive (role WE) and renew them together.
 */
export default function BulkRenewalScreen() {
  const { t } = useTranslation();
  const tenant = useTenantSettings();
  const auth = useAtomValue(authStateAtom);
  // Bulk renewal acts on the account (POST /subscriptions/acceptAllRecommendations): a "logged in
  // only" session (portal-core.md §4, one subscription) may not, so it asks for the account's link
  // like an anonymous visitor (engine/domain/sessionScope.ts).
  const mayChoose =
    isLoggedIn(auth) && mayCall(scopeOf(auth), 'POST', '/subscriptions/acceptAllRecommendations');
  if (!tenant.renewal.bulkRenewal) return <FeatureDisabled />;
  return (
    <section className="bulk-renewal" aria-labelledby="bulk-renewal-title">
      <h1 id="bulk-renewal-title">{t('renewal.bulk.heading')}</h1>
      {mayChoose ? <BulkRenewalChoice /> : <BulkRenewalLogin />}
    </section>
  );
}

/** §2 "Anonymous: login form (email, last name, zip code)", prefilled from the query (email, lastName1, zipCode). */
function BulkRenewalLogin() {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const query = new URLSearchParams(useLocation().search);
  const [values, setValues] = useState<BulkLoginInput>({
    email: query.get('email') ?? '',
    lastName: query.get('lastName1') ?? '',
    zipcode: query.get('zipCode') ?? '',
  });
  // The problems as codes, worded at each render: a language switch words them anew.
  const [problems, setProblems] = useState<ReturnType<typeof bulkLoginErrors>>([]);
  const [sent, setSent] = useState(false);
  const [refused, setRefused] = useState<EntryResult | null>(null);
  const [busy, setBusy] = useState(false);
  const errors: Partial<Record<keyof BulkLoginInput, string>> = {};
  for (const error of problems) {
    const max = error.field === 'zipcode' ? BULK_LOGIN_LIMITS.zipMax : BULK_LOGIN_LIMITS[error.field];
    errors[error.field] =
      error.code === 'required'
        ? t('account.entry.required')
        : error.code === 'invalid'
          ? t('account.entry.invalidEmail')
          : error.code === 'too_short'
            ? t('account.entry.tooShort', { min: BULK_LOGIN_LIMITS.zipMin })
            : t('account.entry.tooLong', { max });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = bulkLoginErrors(values);
    setProblems(found);
    // The last answer goes with the details it was for: none stands beside a new field error.
    setRefused(null);
    if (found.length > 0) return;
    setBusy(true);
    try {
      const locale = portalLocale(i18n.language);
      await offersApi(api).bulkRenewalLogin({
        email: values.email.trim(),
        lastName: values.lastName.trim(),
        zipcode: values.zipcode.trim(),
        locale,
      });
      setSent(true);
    } catch (error) {
      // §8 "login failure shows the authentication login error".
      setRefused(entryResultOf(error));
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof BulkLoginInput) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));
  return (
    <form className="entry-form" onSubmit={submit} noValidate>
      <p>{t('renewal.bulk.loginIntro')}</p>
      <InputField
        label={t('account.entry.email')}
        type="email"
        required
        autoComplete="email"
        maxChars={BULK_LOGIN_LIMITS.email}
        readOnly={sent}
        value={values.email}
        onChange={(e) => set('email')(e.target.value)}
        error={errors.email}
      />
      <InputField
        label={t('account.entry.lastName')}
        required
        autoComplete="family-name"
        maxChars={BULK_LOGIN_LIMITS.lastName}
        readOnly={sent}
        value={values.lastName}
        onChange={(e) => set('lastName')(e.target.value)}
        error={errors.lastName}
      />
      <InputField
        label={t('account.entry.zipcode')}
        required
        autoComplete="postal-code"
        minLength={BULK_LOGIN_LIMITS.zipMin}
        maxChars={BULK_LOGIN_LIMITS.zipMax}
        readOnly={sent}
        value={values.zipcode}
        onChange={(e) => set('zipcode')(e.target.value)}
        error={errors.zipcode}
      />
      {sent && (
        <Alert variant="success">
          <p>{t('renewal.bulk.linkSent', { email: values.email.trim() })}</p>
        </Alert>
      )}
      {refused && (
        <Alert variant="error">
          <p>{entryMessage(t, refused)}</p>
        </Alert>
      )}
      <EntryFormActions
        locked={sent}
        busy={busy}
        submitLabel={t('renewal.bulk.loginSubmit')}
        onUnlock={() => setSent(false)}
      />
    </form>
  );
}

/**
 * §2 "Logged in: lists subscriptions whose business partner has role WE, each with recommendation
 * choices; submit stays disabled until at least one recommendation is chosen". §5: a credit-card
 * and a direct-debit choice together are refused (checked here first, and by the server: 400
 * payment_conflict).
 */
function BulkRenewalChoice() {
  const { t } = useTranslation();
  const [paymentShown, setPaymentShown] = useState(false);
  const { state, reload } = useSubscriptions();
  const { config } = usePortal();
  const subscriptions = useMemo(
    () =>
      state.status === 'ready'
        ? state.subscriptions.filter((s) => isBulkRenewalSubscription(s, config.tenant))
        : [],
    [state, config.tenant],
  );
  const ids = subscriptions.map((s) => s.id).join(',');
  // The tenant's renewal category only: the server accepts the bulk choice from that category alone.
  const candidates = useResource<BulkRenewalCandidate[]>(
    `bulk-renewal:${state.status}:${ids}`,
    async (api) => {
      const calls = offersApi(api);
      const answers = await Promise.allSettled(
        subscriptions.map((s) => calls.recommendations(s.id, { source: 'bulk-renewal' })),
      );
      // One subscription refused (its offers ended, not allowed) leaves the others; all refused is a failure.
      if (answers.length > 0 && answers.every((answer) => answer.status === 'rejected'))
        throw new Error('No bulk renewal offers could be loaded');
      return subscriptions.flatMap((s, index) => {
        const answer = answers[index];
        if (answer.status === 'rejected' || answer.value.length === 0) return [];
        return [
          {
            key: bulkSelectionKey(s),
            subscriptionId: s.id,
            orderNumber: s.orderNumber,
            displayName: s.displayName,
            recommendations: answer.value,
          },
        ];
      });
    },
  );

  if (state.status === 'failed') {
    return (
      <Alert variant="error">
        <p>{t('renewal.bulk.loadError')}</p>
        <button type="button" className="button button-secondary" onClick={reload}>
          {t('shell.tryAgain')}
        </button>
      </Alert>
    );
  }
  if (state.status !== 'ready') return <Loading />;
  return (
    <>
      {/* A payment of this page left open (its window closed, the page loaded again) keeps the
          offers of its subscriptions back (account-flows.md §4 "processing"): it is named, with the
          way to give it up, rather than a list without them that says there is nothing to renew. */}
      <OpenPayments
        subscriptionIds={subscriptions.map((s) => s.id)}
        hidden={false}
        round={ids}
        onGivenUp={candidates.reload}
        onShown={setPaymentShown}
      />
      <ResourceView
        resource={candidates}
        errorKey="renewal.bulk.loadError"
        emptyKey="renewal.bulk.empty"
        isEmpty={(list) => list.length === 0 && !paymentShown}
      >
        {(list) => (list.length === 0 ? null : <BulkRenewalForm candidates={list} />)}
      </ResourceView>
    </>
  );
}

function BulkRenewalForm({ candidates }: { candidates: BulkRenewalCandidate[] }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const flow = usePaymentFlow();
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [serverConflict, setServerConflict] = useState(false);
  // A refused submit, with the order the server names (an offer gone, another way to pay needed).
  const [submitError, setSubmitError] = useState<{ orderNumber?: string } | null>(null);

  const chosen = Object.fromEntries(
    candidates.map((candidate) => [
      candidate.key,
      candidate.recommendations.find((r) => r.id === choices[candidate.key]) ?? null,
    ]),
  );
  const selection = bulkSelection(chosen);
  const count = Object.keys(selection.selectedRecommendations).length;
  const conflict = hasPaymentConflict(selection.providers) || serverConflict;
  const busy = isPaymentBusy(flow.state);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (count === 0 || conflict) return;
    setSubmitError(null);
    try {
      await flow.accept(() =>
        offersApi(api).acceptAll({ selectedRecommendations: selection.selectedRecommendations }),
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'payment_conflict') setServerConflict(true);
      // One of them was renewed already (409 offer_already_accepted): its own dialog, nothing charged.
      else if (error instanceof ApiError && refusedOfferOutcome(error.code)) flow.fail(error);
      // §8 "submit errors show the server data or the error text in an alert": the order it names.
      else setSubmitError({ orderNumber: orderNumberOf(error) });
    }
  }

  function closeSuccess() {
    flow.reset();
    setSubscriptions(resetSubscriptions);
    navigate(href(ROUTES.orders));
  }

  const success = flow.state.step === 'success' ? flow.state : null;
  return (
    <form onSubmit={submit} noValidate>
      <p>{t('renewal.bulk.intro')}</p>
      {candidates.map((candidate) => (
        <div key={candidate.key} className="bulk-renewal-item card">
          <OfferList
            offers={candidate.recommendations}
            selected={choices[candidate.key] ?? ''}
            onSelect={(id) => {
              setServerConflict(false);
              setChoices((current) => ({ ...current, [candidate.key]: id }));
            }}
            legend={t('renewal.bulk.legend', {
              title: candidate.displayName,
              orderNumber: candidate.orderNumber,
            })}
            name={`bulk-${candidate.key}`}
            noneLabel={t('renewal.bulk.none')}
            disabled={busy}
          />
        </div>
      ))}
      {conflict && (
        <Alert variant="error">
          <p>{t('renewal.bulk.paymentConflict')}</p>
        </Alert>
      )}
      {submitError && (
        <Alert variant="error">
          <p>
            {submitError.orderNumber
              ? t('renewal.bulk.submitErrorOf', { orderNumber: submitError.orderNumber })
              : t('renewal.bulk.submitError')}
          </p>
        </Alert>
      )}
      <PaymentDialogs flow={flow} />
      {count === 0 && (
        <p id="bulk-renewal-hint" className="muted">
          {t('renewal.bulk.chooseHint')}
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="button"
          disabled={count === 0 || conflict || busy}
          aria-describedby={count === 0 ? 'bulk-renewal-hint' : undefined}
        >
          {t('renewal.bulk.submit')}
        </button>
      </div>
      {success && (
        <OfferSuccessDialog
          title={t('renewal.bulk.successTitle')}
          text={t('renewal.bulk.successText')}
          crossSelling={success.crossSelling}
          onClose={closeSuccess}
        />
      )}
    </form>
  );
}

/** The order a refusal names in its details (server/offers/commands/bulkAccept.ts). */
function orderNumberOf(error: unknown): string | undefined {
  const details = error instanceof ApiError ? error.details : undefined;
  const orderNumber = (details as { orderNumber?: unknown } | undefined)?.orderNumber;
  return typeof orderNumber === 'string' ? orderNumber : undefined;
}
