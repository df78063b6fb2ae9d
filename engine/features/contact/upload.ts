import { UPLOAD_MAX_BYTES } from '../../domain/fieldRules';
import { detectUploadType } from '../../domain/contactRules';

export interface PickedFile {
  filename: string;
  mimeType: string;
  data: string;
  size: number;
}

export type PickOutcome =
  { file: PickedFile } | { error: 'file_too_large' | 'file_type' } | { file: undefined };

/**
 * §5 "File upload (contact)": only the first file is taken; a file over 2097152 bytes is refused
 * with the file-too-large message (the caller clears the input); png, jpeg and pdf only, known by
 * their first bytes as the server knows them (detectUploadType), not by the browser's type, which
 * comes from the name: a PDF saved as `Rechnung.html` is a PDF, and goes to customer service as
 * `Rechnung.pdf` (uploadFileName, on the server).
 */
export async function pickFile(files: FileList | null): Promise<PickOutcome> {
  const file = files?.[0];
  if (!file) return { file: undefined };
  if (file.size > UPLOAD_MAX_BYTES) return { error: 'file_too_large' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const mimeType = detectUploadType(bytes);
  if (!mimeType) return { error: 'file_type' };
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { file: { filename: file.name, mimeType, data: btoa(binary), size: file.size } };
}
