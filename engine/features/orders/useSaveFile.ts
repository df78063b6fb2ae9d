import { useAtomValue } from 'jotai';
import { authStateAtom } from '../../core/authState';
import { AUTH_HEADER } from '../../core/apiClient';

/**
 * Fetches a file the API serves only to the signed-in user (x-auth-token) and saves it under the
 * given name — the invoice PDF as `<documentId>.pdf` (§2), pending-order files. Throws on failure.
 */
export function useSaveFile() {
  const auth = useAtomValue(authStateAtom);
  return async (url: string, fileName: string) => {
    const response = await fetch(url, { headers: auth.accessToken ? { [AUTH_HEADER]: auth.accessToken } : {} });
    if (!response.ok) throw new Error(`download failed: ${response.status}`);
    const objectUrl = URL.createObjectURL(await response.blob());
    const anchor = document.createElement('a');
    anchor.href = objectUrl;
    anchor.download = fileName;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  };
}
