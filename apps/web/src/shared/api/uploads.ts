import { ZUpload, type TUploadPurpose } from '@kabuto/contract';
import { api } from '@/shared/api/client';

/** The runtime's upload timeout (specification §9: network, socket, upload, download 60000 ms). */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** POST /api/uploads (multipart: `purpose` first, then `file`), cancellable, without the global toast. */
export function uploadPhoto(file: Blob, purpose: TUploadPurpose, signal: AbortSignal) {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, file instanceof File ? file.name : 'photo');
  return api.request({
    method: 'POST',
    path: '/uploads',
    form,
    signal,
    schema: ZUpload,
    notify: false,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}

/** GET /api/uploads/:id (the owner only) as a blob, to show through an object URL. */
export async function fetchUploadBlob(id: string): Promise<Blob> {
  const file = await api.fetchFile({ path: `/uploads/${id}`, notify: false, timeoutMs: UPLOAD_TIMEOUT_MS });
  return file.blob;
}
