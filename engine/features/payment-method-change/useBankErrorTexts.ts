import { useCallback } from 'react';
import { useTranslation } from '../../core/translation';
import { bankErrorKey, type BankField } from './bankErrors';

/** The messages of bank form errors, the first per field. */
export function useBankErrorTexts(): <F extends BankField>(
  errors: ReadonlyArray<{ field: F; code: string }>,
) => Partial<Record<F, string>> {
  const { t } = useTranslation();
  return useCallback(
    <F extends BankField>(errors: ReadonlyArray<{ field: F; code: string }>) => {
      const messages: Partial<Record<F, string>> = {};
      for (const { field, code } of errors) {
        if (messages[field]) continue;
        const { key, values } = bankErrorKey(field, code);
        messages[field] = t(key, values);
      }
      return messages;
    },
    [t],
  );
}

/** The server's refused fields (400 validation_failed details.fields) among the form's own. */
export function knownFields<F extends string>(
  fields: Record<string, string>,
  own: readonly F[],
): Array<{ field: F; code: string }> {
  return Object.entries(fields)
    .filter((entry): entry is [F, string] => (own as readonly string[]).includes(entry[0]))
    .map(([field, code]) => ({ field, code }));
}
