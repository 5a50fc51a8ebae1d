import type { TUploadPurpose } from '@kabuto/contract';
import { Button } from 'antd-mobile';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIENT_CODES, isApiError } from '@kabuto/client/api-error';
import { tContract } from '@/shared/i18n/i18n';
import { uploadPhoto } from '@/shared/api/uploads';
import { fileProblem } from '@/shared/api/upload-check';
import { AuthImage } from '@/shared/ui/auth-image';

type UploadState =
  | { kind: 'idle' }
  | { kind: 'uploading' }
  | { kind: 'success'; id: string }
  | { kind: 'failed'; message: string };

/** Why an upload failed, in the user's words: timeout, cancelled, unreadable file, or the server's reason. */
function failureMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    if (error.code === CLIENT_CODES.aborted) return t('upload.aborted');
    if (error.code === CLIENT_CODES.timeout) return t('upload.timeout');
    if (error.code === CLIENT_CODES.network || error.code === CLIENT_CODES.badResponse) {
      return t('upload.failed');
    }
    return error.msg;
  }
  return t('upload.failed');
}

/**
 * One photo (front or back of the ID, a bank book, a transfer receipt): choose, upload at once, and see
 * its own state (uploading with a cancel button, failed with the reason and a retry, or uploaded with the
 * stored picture). The parent keeps the upload id ('' when none).
 */
export function PhotoUpload({
  label,
  purpose,
  value,
  onChange,
  error,
  optional = false,
  testId,
}: {
  label: string;
  purpose: TUploadPurpose;
  value: string;
  onChange: (uploadId: string) => void;
  error?: string;
  optional?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);
  const [retryFile, setRetryFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>(
    value === '' ? { kind: 'idle' } : { kind: 'success', id: value },
  );

  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );

  async function start(file: File) {
    const problem = fileProblem(file);
    setRetryFile(problem === null ? file : null);
    if (problem !== null) {
      setState({ kind: 'failed', message: tContract(problem) });
      onChange('');
      return;
    }
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState({ kind: 'uploading' });
    onChange('');
    let bytes: Blob;
    try {
      bytes = new Blob([await file.arrayBuffer()], { type: file.type });
    } catch {
      setState({ kind: 'failed', message: t('upload.fileError') });
      return;
    }
    try {
      const uploaded = await uploadPhoto(bytes, purpose, current.signal);
      if (controller.current !== current) return;
      setState({ kind: 'success', id: uploaded.id });
      onChange(uploaded.id);
    } catch (failure) {
      if (controller.current !== current) return;
      setState({ kind: 'failed', message: failureMessage(failure, t) });
    }
  }

  const shownError = state.kind === 'failed' ? state.message : error;
  return (
    <div className={`photo-upload photo-upload--${state.kind}`} data-testid={testId} data-state={state.kind}>
      <label className="photo-upload__label" htmlFor={id}>
        {label}
        {optional && <span className="photo-upload__optional"> ({t('upload.optional')})</span>}
      </label>
      <input
        ref={input}
        id={id}
        className="visually-hidden"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        aria-describedby={shownError === undefined ? undefined : `${id}-error`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file !== undefined) void start(file);
        }}
      />
      <div className="photo-upload__body">
        {state.kind === 'success' && <AuthImage uploadId={state.id} alt={label} />}
        <p className="photo-upload__status" role="status" aria-live="polite">
          {state.kind === 'uploading'
            ? t('upload.uploading')
            : state.kind === 'success'
              ? t('upload.success')
              : state.kind === 'failed'
                ? t('upload.failedTitle')
                : t('upload.none')}
        </p>
        <div className="photo-upload__actions">
          {state.kind === 'uploading' ? (
            <Button
              size="small"
              onClick={() => {
                controller.current?.abort();
              }}
            >
              {t('upload.cancel')}
            </Button>
          ) : (
            <Button size="small" color="primary" fill="outline" onClick={() => input.current?.click()}>
              {state.kind === 'success' ? t('upload.change') : t('upload.choose')}
            </Button>
          )}
          {state.kind === 'failed' && retryFile !== null && (
            <Button
              size="small"
              onClick={() => {
                void start(retryFile);
              }}
            >
              {t('upload.retry')}
            </Button>
          )}
        </div>
      </div>
      {shownError !== undefined && (
        <div className="photo-upload__error" id={`${id}-error`} role="alert">
          {shownError.startsWith('validation.') || shownError.startsWith('errors.')
            ? tContract(shownError)
            : shownError}
        </div>
      )}
    </div>
  );
}
