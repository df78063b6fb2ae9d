import { UPLOAD_MAX_BYTES, UPLOAD_MIME_TYPES } from '../../domain/fieldRules';

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
 * with the file-too-large message (the caller clears the input); png, jpeg and pdf only. The
 * browser's type comes from the name, so the server checks the bytes again.
 */
export async function pickFile(files: FileList | null): Promise<PickOutcome> {
  const file = files?.[0];
  if (!file) return { file: undefined };
  if (file.size > UPLOAD_MAX_BYTES) return { error: 'file_too_large' };
  const mimeType = file.type === 'image/jpg' ? 'image/jpeg' : file.type;
  if (!(UPLOAD_MIME_TYPES as readonly string[]).includes(mimeType)) return { error: 'file_type' };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { file: { filename: file.name, mimeType, data: btoa(binary), size: file.size } };
}
