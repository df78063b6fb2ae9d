/**
 * The e-card form's parts (account-flows.md §2 "E-card", §5, §9): the answer's notice, the template
 * picker, the card's fields with the timing, and the preview.
 */
import { useTranslation } from '../../core/translation';
import { tooManyText } from '../../core/tooManyText';
import { useTenantSettings } from '../../account/capabilityContext';
import {
  ECARD_DAILY_CAP,
  ECARD_MESSAGE_MAX_LENGTH,
  ECARD_NAME_MAX_LENGTH,
  eCardImageUrl,
  templatesIn,
} from '../../domain/eCard';
import { textLength } from '../../domain/fieldRules';
import { Alert } from '../../ui/Alert';
import { InputField, RadioGroup, SelectField, TextAreaField } from '../../ui/fields';
import { OUTCOME_TEXT } from './eCardOutcomes';
import { localInputValue, type ECardFormModel, type ECardSent } from './useECardForm';

/** Sent, timed, the daily cap reached (with when to try again) or the fields to check. */
export function ECardOutcomeAlert({ outcome, onClose }: { outcome: ECardSent; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const when = outcome.answer
    ? new Date(outcome.answer.sendAt).toLocaleString(i18n.language, { dateStyle: 'long', timeStyle: 'short' })
    : '';
  return (
    <Alert
      variant={outcome.answer ? 'success' : outcome.outcome === 'e-card:limit' ? 'warning' : 'error'}
      onClose={onClose}
      closeLabel={t('shell.close')}
    >
      <p>
        {outcome.outcome === 'e-card:limit'
          ? tooManyText(t, outcome.refusal, t(OUTCOME_TEXT[outcome.outcome], { max: ECARD_DAILY_CAP }))
          : t(OUTCOME_TEXT[outcome.outcome], { when, max: ECARD_DAILY_CAP })}
      </p>
    </Alert>
  );
}

/**
 * The templates as picture cards, filtered by category where there are several: a picture-card
 * RadioGroup of the field kit, styled by the template cards' own classes (eCard.css).
 */
export function TemplatePicker({ form }: { form: ECardFormModel }) {
  const { t } = useTranslation();
  const {
    templates,
    categories,
    category,
    setCategory,
    template,
    setTemplate,
    shown,
    categoryLabel,
    apiBase,
  } = form.picker;
  const categorySelect = categories.length > 1 && (
    <SelectField label={t('e-card.category')} value={category} onChange={(e) => setCategory(e.target.value)}>
      <option value="">{t('e-card.allCategories')}</option>
      {categories.map((code) => (
        <option key={code} value={code}>
          {categoryLabel(code)}
        </option>
      ))}
    </SelectField>
  );
  return (
    <RadioGroup
      bare
      className="e-card-templates"
      legend={t('e-card.templates')}
      name="template"
      lead={categorySelect}
      listClassName="e-card-template-list"
      options={shown.map((tpl) => ({
        value: tpl.name,
        className: `e-card-template${tpl.name === template ? ' is-chosen' : ''}`,
        label: (
          <>
            <img
              src={eCardImageUrl(tpl.previewImageUrl, apiBase)}
              alt=""
              width={300}
              height={200}
              loading="lazy"
            />
            <span>
              {t('e-card.templateLabel', {
                category: categoryLabel(tpl.category),
                number: templatesIn(templates, tpl.category).indexOf(tpl) + 1,
              })}
            </span>
          </>
        ),
      }))}
      value={template}
      onChange={setTemplate}
      error={form.errorOf('template')}
    />
  );
}

/** From, to, the recipient's e-mail, the message, and now or at a time one day ahead (§9). */
export function ECardFields({ form }: { form: ECardFormModel }) {
  const { t } = useTranslation();
  const tenant = useTenantSettings();
  const { values, set, errorOf, earliest } = form;
  return (
    <div className="e-card-fields">
      <InputField
        label={t('e-card.from')}
        required
        value={values.from}
        onChange={set('from')}
        maxChars={ECARD_NAME_MAX_LENGTH}
        autoComplete="name"
        error={errorOf('from')}
      />
      <InputField
        label={t('e-card.to')}
        required
        value={values.to}
        onChange={set('to')}
        maxChars={ECARD_NAME_MAX_LENGTH}
        error={errorOf('to')}
      />
      <InputField
        label={t('e-card.toEmail')}
        required
        type="email"
        value={values.toEmail}
        onChange={set('toEmail')}
        maxChars={254}
        error={errorOf('toEmail')}
      />
      <TextAreaField
        label={t('e-card.message')}
        required
        rows={5}
        value={values.message}
        onChange={set('message')}
        maxChars={ECARD_MESSAGE_MAX_LENGTH}
        hint={t('e-card.messageHint', { count: textLength(values.message), max: ECARD_MESSAGE_MAX_LENGTH })}
        error={errorOf('message')}
      />
      <RadioGroup
        className="e-card-timing"
        legend={t('e-card.timing')}
        name="timing"
        options={[
          { value: 'now', label: t('e-card.now') },
          // account-flows.md §9: a time at least one day ahead, where the tenant allows it.
          ...(tenant.eCard.allowScheduledSend ? [{ value: 'timed' as const, label: t('e-card.timed') }] : []),
        ]}
        value={values.timing}
        onChange={form.chooseTiming}
      />
      {tenant.eCard.allowScheduledSend && (
        <InputField
          label={t('e-card.sendAt')}
          type="datetime-local"
          value={values.sendAt}
          min={localInputValue(earliest)}
          disabled={values.timing !== 'timed'}
          required={values.timing === 'timed'}
          onChange={set('sendAt')}
          error={errorOf('sendAt')}
        />
      )}
    </div>
  );
}

/** The chosen template with the card's words as they will read. */
export function ECardPreview({ form }: { form: ECardFormModel }) {
  const { t } = useTranslation();
  const { chosen, categoryLabel, apiBase } = form.picker;
  const { values } = form;
  if (!chosen) return null;
  return (
    <figure className="e-card-preview" aria-labelledby="e-card-preview-title">
      <h2 id="e-card-preview-title">{t('e-card.preview')}</h2>
      <img
        src={eCardImageUrl(chosen.previewImageUrl, apiBase)}
        alt={t('e-card.previewAlt', { category: categoryLabel(chosen.category) })}
        width={600}
        height={400}
      />
      <figcaption>
        <p className="e-card-preview-to">{t('e-card.previewTo', { to: values.to || '…' })}</p>
        <p className="e-card-preview-message">{values.message || t('e-card.previewEmpty')}</p>
        <p className="e-card-preview-from">{values.from || '…'}</p>
      </figcaption>
    </figure>
  );
}
