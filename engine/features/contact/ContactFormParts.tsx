import type { RefObject } from 'react';
import { useTranslation } from '../../core/translation';
import { UPLOAD_ACCEPT } from '../../domain/contactRules';
import { Dialog } from '../../ui/Dialog';

export type ContactOutcome =
  { kind: 'success' } | { kind: 'error'; messageKey: string; maskedEmail?: string; text?: string };

/** The image upload of an activity that takes one (portal-core.md §5: its types and size). */
export function ContactUpload({
  fileInput,
  error,
  onFile,
}: {
  fileInput: RefObject<HTMLInputElement | null>;
  error: string | undefined;
  onFile: (list: FileList | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="form-field">
      <label htmlFor="contact-upload">{t('contact.upload')}</label>
      <input
        id="contact-upload"
        ref={fileInput}
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-describedby="contact-upload-hint"
        aria-invalid={error ? true : undefined}
        onChange={(e) => onFile(e.target.files)}
      />
      <p id="contact-upload-hint" className="muted">
        {t('contact.uploadHint')}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The answer of a sending (portal-core.md §4, §8): the success dialog, or the error dialog naming why. */
export function ContactOutcomeDialog({
  outcome,
  onSuccessClose,
  onErrorClose,
}: {
  outcome: ContactOutcome;
  onSuccessClose: () => void;
  onErrorClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {outcome.kind === 'success' && (
        <Dialog
          title={t('contact.successTitle')}
          variant="success"
          onClose={onSuccessClose}
          actions={
            <button type="button" className="button" onClick={onSuccessClose}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{t('contact.successText')}</p>
        </Dialog>
      )}
      {outcome.kind === 'error' && (
        <Dialog
          title={t('contact.errorTitle')}
          variant="error"
          onClose={onErrorClose}
          actions={
            <button type="button" className="button" onClick={onErrorClose}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{outcome.text ?? t(outcome.messageKey, { maskedEmail: outcome.maskedEmail ?? '' })}</p>
        </Dialog>
      )}
    </>
  );
}
