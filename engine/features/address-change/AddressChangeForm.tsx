import { useEffect, useRef } from 'react';
import { useTranslation } from '../../core/translation';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { AddressFields } from '../../account/changes/AddressFields';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { AddressTiming, ConfirmAddressDialog, ContactFields, NextIssueWarning } from './AddressChangeParts';
import { useAddressChangeForm } from './useAddressChangeForm';

/**
 * The address form of account-flows.md §5 for one partner: every rule of
 * engine/domain/addressRules.ts addressErrors (the server checks the same); names and salutation,
 * country, e-mail, phone and birth date editable only as the tenant allows (else shown locked with
 * the pointer to the contact form); address lines or street and number by the tenant's
 * `address-lines` feature; required fields starred; the timing "as soon as possible" or "from a
 * date" (tomorrow at the earliest) where the tenant offers timed changes, with the warning when an
 * immediate change misses the next issue already shipping. Saving is confirmed first; leaving with
 * unsaved changes asks (§2). Its state and calls are useAddressChangeForm's, its parts
 * AddressChangeParts'.
 */
export function AddressChangeForm({
  subscription: s,
  partner,
  onDone,
  onChangedMeanwhile,
}: {
  subscription: Subscription;
  partner: SubscriptionPartner;
  onDone: () => void;
  /** Loads the partner again after the server said its details changed since the form loaded. */
  onChangedMeanwhile: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const form = useAddressChangeForm(s, partner, onChangedMeanwhile);
  // Focused as it appears: the save button the person pressed may be a phone's screens below it.
  const changedNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (form.changedMeanwhile) changedNotice.current?.focus();
  }, [form.changedMeanwhile]);
  const { values, change, errors, required, ruleContext, salutations, countries, access, sending } = form;
  return (
    <form ref={form.ref} className="address-form" onSubmit={form.check} noValidate>
      {form.changedMeanwhile && (
        <div tabIndex={-1} ref={changedNotice} className="changed-meanwhile">
          <Alert variant="warning">
            <p>{t('address-change.changedMeanwhile')}</p>
          </Alert>
        </div>
      )}
      <p className="field-note muted">{t('account.changes.requiredNote')}</p>
      <AddressFields
        legend={t('address-change.addressLegend')}
        values={values}
        onChange={change}
        errors={errors}
        required={required}
        addressLines={ruleContext.addressLines}
        salutations={salutations}
        countries={countries.options}
        namesLocked={!access.names}
        countryLocked={!access.country}
        disabled={sending}
        organisation
      />
      <ContactFields form={form} />
      {form.timed && <AddressTiming form={form} />}
      {form.missesNextIssue && <NextIssueWarning partner={partner} />}
      <p className="field-note muted">{t('address-change.visibleAfter')}</p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('address-change.save')}
        </button>
        {/* Cancel leaves like a link does: with unsaved changes it asks first (account-flows.md §2 "Addresses"). */}
        <button
          type="button"
          className="button button-secondary"
          onClick={() => form.confirmLeave() && onDone()}
        >
          {t('address-change.cancel')}
        </button>
      </div>
      {form.confirming && <ConfirmAddressDialog form={form} />}
      {form.failed && (
        <ErrorDialog message={t('address-change.failed')} onClose={() => form.setFailed(false)} />
      )}
    </form>
  );
}
