import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';
import { usePortal } from '../../core/PortalContext';
import { can, type CapabilityContext } from '../../domain/capabilities';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { localized } from '../../ui/localized';
import { useTenantSettings } from '../../account/capabilityContext';
import { labelInSentence } from './attributeLabel';
import { fitsOrderAttribute, isOneLineText, type OrderAttributeInputType } from '../../domain/fieldRules';

/** What a value of each kind should look like, when it is not (fieldRules.ts fitsOrderAttribute). */
const INVALID_VALUE: Record<Exclude<OrderAttributeInputType, 'text'>, string> = {
  number: 'subscription.attributeInvalid.number',
  email: 'subscription.attributeInvalid.email',
  tel: 'subscription.attributeInvalid.tel',
  date: 'subscription.attributeInvalid.date',
};

/**
 * Order attributes (tenant orderAttributes config, portal-core.md §3 "Order attribute config"):
 * shown in the tenant's order, editable or creatable by the ordering party; §5 "value required";
 * a failed update shows the generic error dialog (§8).
 */
export function OrderAttributes({
  subscription,
  ctx,
  onSaved,
}: {
  subscription: Subscription;
  ctx: CapabilityContext;
  onSaved: (s: Subscription) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const configs = useTenantSettings().orderAttributes?.attributes ?? [];
  const editable = can('orderAttributes', subscription, ctx);
  const [editing, setEditing] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const rows = configs
    .map((config) => ({ config, current: subscription.orderAttributes.find((a) => a.type === config.type) }))
    .filter(({ config, current }) => current || (editable && config.creatable));
  if (rows.length === 0) return null;

  async function save(type: string, inputType: OrderAttributeInputType | undefined) {
    if (!value.trim()) {
      setError(t('subscription.attributeRequired'));
      return;
    }
    // The value goes to the order system as one field (fieldRules.ts isOneLineText).
    if (!isOneLineText(value)) {
      setError(t('shell.oneLine'));
      return;
    }
    // Of the attribute's kind, as the server checks it (portal-core.md §3 inputType).
    if (inputType && inputType !== 'text' && !fitsOrderAttribute(inputType, value.trim())) {
      setError(t(INVALID_VALUE[inputType]));
      return;
    }
    setSaving(true);
    try {
      onSaved(
        await api.post<Subscription>(`/subscriptions/${encodeURIComponent(subscription.id)}/attributes`, {
          type,
          value: value.trim(),
        }),
      );
      setEditing(null);
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card order-attributes" aria-labelledby="attributes-title">
      <h2 id="attributes-title">{t('subscription.attributesHeading')}</h2>
      <dl className="facts">
        {rows.map(({ config, current }) => {
          const label = localized(config.label, i18n.language) || config.type;
          const mayEdit = editable && (current ? config.editable : config.creatable);
          const inputId = `attribute-${config.type}`;
          return (
            <div key={config.type} className="fact">
              <dt>{editing === config.type ? <label htmlFor={inputId}>{label}</label> : label}</dt>
              <dd>
                {editing === config.type ? (
                  <form
                    className="inline-form"
                    // The portal's own message in the screen's language, never the browser's bubble (portal-core.md §5).
                    noValidate
                    onSubmit={(e) => {
                      e.preventDefault();
                      void save(config.type, config.inputType);
                    }}
                  >
                    <input
                      id={inputId}
                      type={config.inputType ?? 'text'}
                      value={value}
                      required
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${inputId}-error` : undefined}
                      onChange={(e) => setValue(e.target.value)}
                    />
                    <button type="submit" className="button" disabled={saving}>
                      {t('subscription.save')}
                    </button>
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => setEditing(null)}
                    >
                      {t('account.cancel')}
                    </button>
                    {error && (
                      <p id={`${inputId}-error`} className="form-error">
                        {error}
                      </p>
                    )}
                  </form>
                ) : (
                  <>
                    {current?.value ?? <span className="muted">{t('subscription.attributeMissing')}</span>}{' '}
                    {mayEdit && (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          setEditing(config.type);
                          setValue(current?.value ?? config.value ?? '');
                          setError(null);
                        }}
                      >
                        {current
                          ? t('subscription.edit', { label: labelInSentence(label, i18n.language) })
                          : t('subscription.add', { label: labelInSentence(label, i18n.language) })}
                      </button>
                    )}
                  </>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </section>
  );
}
