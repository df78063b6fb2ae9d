import { ApiError } from '../../core/apiClient';

/**
 * The field codes of a 400 validation_failed answer (`details.fields`: {field: code}), the server
 * checking with the same rules as the form; null for any other failure.
 */
export function apiFieldCodes(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return null;
  const fields = (error.details as { fields?: unknown } | undefined)?.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The error's code when the API refused (403, 404, 409 …), else undefined. */
export const apiErrorCode = (error: unknown) => (error instanceof ApiError ? error.code : undefined);
