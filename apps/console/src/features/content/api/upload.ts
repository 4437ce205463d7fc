import type { UploadResult } from '@coffer/contract/content';
import { api } from '../../../lib/api';

/** POST /api/admin/uploads (multipart, one file): where the stored image is served. */
export function uploadImage(file: Blob, name: string) {
  const form = new FormData();
  form.append('file', file, name);
  return api.upload<UploadResult>('/admin/uploads', form);
}
