import { UPLOAD_MAX_BYTES } from '@kabuto/contract';

/**
 * What can be told about a chosen file before sending it: empty or over 10 MB (a contract error key).
 * Its kind is not judged by name or browser-given type: the server reads the content.
 */
export function fileProblem(file: {
  size: number;
}): 'errors.UPLOAD_EMPTY' | 'errors.UPLOAD_TOO_LARGE' | null {
  if (file.size === 0) return 'errors.UPLOAD_EMPTY';
  if (file.size > UPLOAD_MAX_BYTES) return 'errors.UPLOAD_TOO_LARGE';
  return null;
}
