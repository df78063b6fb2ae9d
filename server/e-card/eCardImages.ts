/**
 * The e-card template images a tenant ships (docs/subscribers.md "E-cards"): a template whose previewImageUrl
 * is a file name is the file tenants/assets/<tenant>/e-cards/<file>. The portal serves it as the
 * preview (GET /api/e-card/images/<file>) and attaches it inline to the e-mail (CID), so the card
 * shows without the mail client loading anything from the web.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eCardImageFile } from '../../engine/domain/eCard';

/** Where tenants' asset folders are (tenants/assets/<tenant>/); tests may point elsewhere. */
export const TENANT_ASSETS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../tenants/assets',
);

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export interface ECardImage {
  file: string;
  contentType: string;
  content: Buffer;
}

/** The image file of a template's previewImageUrl, or undefined for an absolute URL or a missing file. */
export async function readECardImage(
  tenantId: string,
  previewImageUrl: string,
  assetsDir = TENANT_ASSETS_DIR,
): Promise<ECardImage | undefined> {
  const file = eCardImageFile(previewImageUrl);
  // The tenant id comes from the server's tenant list and the file name from the pattern above: no path escapes.
  if (!file || !/^[a-z0-9-]+$/.test(tenantId)) return undefined;
  try {
    const content = await readFile(path.join(assetsDir, tenantId, 'e-cards', file));
    return {
      file,
      contentType: TYPES[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream',
      content,
    };
  } catch {
    return undefined;
  }
}
