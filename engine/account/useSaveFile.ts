import { usePortal } from '../core/PortalContext';

/**
 * Fetches a file the API serves only to the signed-in user and saves it under the given name — the
 * invoice PDF as `<documentId>.pdf` (§2), pending-order files. Goes through the API client
 * (`getBlob`), so a 401 logs the user out as on every other call (§2, §7). Throws on failure.
 * `path` is relative to the API base, like the client's other calls.
 */
export function useSaveFile() {
  const { api } = usePortal();
  return async (path: string, fileName: string) => {
    const objectUrl = URL.createObjectURL(await api.getBlob(path));
    const anchor = document.createElement('a');
    anchor.href = objectUrl;
    anchor.download = fileName;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
  };
}
