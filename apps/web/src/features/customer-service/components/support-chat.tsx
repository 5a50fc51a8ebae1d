import { SUPPORT_TEXT_MAX, ZSupportConversation, ZSupportMessage } from '@kabuto/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, TextArea } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIENT_CODES, isApiError } from '@kabuto/client/api-error';
import { api } from '@/shared/api/client';
import { fileProblem } from '@/shared/api/upload-check';
import { uploadPhoto } from '@/shared/api/uploads';
import { tContract } from '@/shared/i18n/i18n';
import { AuthImage } from '@/shared/ui/auth-image';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { subscribeUserEvents } from '@/shared/realtime/realtime';
import { useSession } from '@/shared/session/session';

const supportKey = (userId: number | null) => ['support', userId] as const;

/**
 * The in-app support conversation (ADR 0029): the user writes, staff answer from the console; a new
 * message arrives live on the user's channel (event `support_message`) and refreshes the conversation.
 */
export function SupportChat() {
  const { t } = useTranslation();
  const locale = useLocale();
  const userId = useSession((s) => (s.token === null ? null : s.userId));
  const client = useQueryClient();
  const [text, setText] = useState('');
  const { input: fileInput, state: attachment, start: attach, clear: clearAttachment } = useAttachment();
  const query = useQuery({
    queryKey: supportKey(userId),
    queryFn: () => api.request({ path: '/support', schema: ZSupportConversation }),
    enabled: userId !== null,
  });
  useEffect(
    () =>
      subscribeUserEvents((event) => {
        if (event.kind === 'support_message') void client.invalidateQueries({ queryKey: supportKey(userId) });
      }),
    [client, userId],
  );
  const unread = query.data?.unread ?? 0;
  useEffect(() => {
    if (unread > 0) {
      void api
        .request({ method: 'POST', path: '/support/read', body: {}, schema: ZSupportConversation.pick({}) })
        .then(() => client.invalidateQueries({ queryKey: supportKey(userId) }));
    }
  }, [unread, client, userId]);
  const send = useMutation({
    mutationFn: (message: { text: string; upload_id?: string }) =>
      api.request({
        method: 'POST',
        path: '/support/messages',
        body: message,
        schema: ZSupportMessage,
      }),
    onSuccess: () => {
      setText('');
      clearAttachment();
      void client.invalidateQueries({ queryKey: supportKey(userId) });
    },
  });
  if (userId === null) return null;
  const messages = query.data?.messages ?? [];
  return (
    <section className="support-chat" aria-label={t('support.title')} data-testid="support-chat">
      <h2 className="section-title">
        {t('support.title')} {unread > 0 && <Badge content={unread} />}
      </h2>
      <p className="fraud-warning" role="note" data-testid="support-notice">
        {t('support.notice')}
      </p>
      {messages.length === 0 ? (
        <p className="support-chat__empty">{t('support.empty')}</p>
      ) : (
        <ol className="support-chat__messages" data-testid="support-messages" aria-live="polite">
          {messages.map((m) => (
            <li
              key={m.id}
              className={`support-chat__message support-chat__message--${m.from}`}
              data-from={m.from}
            >
              <span className="support-chat__who">
                {m.from === 'staff' ? t('support.staff') : t('support.you')}
              </span>
              {m.text !== '' && <span className="support-chat__text">{m.text}</span>}
              {m.upload_id !== null && (
                <span className="support-chat__image" data-testid="support-image">
                  <AuthImage
                    uploadId={m.upload_id}
                    alt={m.from === 'staff' ? t('support.imageFromStaff') : t('support.imageFromYou')}
                  />
                </span>
              )}
              <time className="support-chat__time" dateTime={m.created_at}>
                {formatDateTime(m.created_at, locale)}
              </time>
            </li>
          ))}
        </ol>
      )}
      <form
        className="support-chat__form"
        onSubmit={(event) => {
          event.preventDefault();
          const uploadId = attachment.kind === 'ready' ? attachment.id : undefined;
          if (text.trim() !== '' || uploadId !== undefined)
            send.mutate(
              uploadId === undefined ? { text: text.trim() } : { text: text.trim(), upload_id: uploadId },
            );
        }}
      >
        <TextArea
          value={text}
          onChange={setText}
          maxLength={SUPPORT_TEXT_MAX}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('support.placeholder')}
          aria-label={t('support.placeholder')}
          data-testid="support-input"
        />
        <AttachmentPreview state={attachment} onClear={clearAttachment} />
        <div className="support-chat__actions">
          {/* the file input stays hidden behind the kit's button (no browser-native control on screen) */}
          <input
            ref={fileInput}
            className="visually-hidden"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="support-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file !== undefined) void attach(file);
            }}
          />
          <Button
            size="small"
            fill="outline"
            onClick={() => fileInput.current?.click()}
            disabled={attachment.kind === 'uploading'}
            data-testid="support-attach"
          >
            {t('support.attach')}
          </Button>
          <Button
            type="submit"
            color="primary"
            size="small"
            loading={send.isPending}
            disabled={(text.trim() === '' && attachment.kind !== 'ready') || attachment.kind === 'uploading'}
            data-testid="support-send"
          >
            {t('support.send')}
          </Button>
        </div>
      </form>
    </section>
  );
}

type AttachmentState =
  | { kind: 'none' }
  | { kind: 'uploading' }
  | { kind: 'ready'; id: string }
  | { kind: 'failed'; message: string };

/** Why an upload failed, in the user's words: timeout, cancelled, or the server's reason. */
function failureMessage(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    if (error.code === CLIENT_CODES.timeout) return t('upload.timeout');
    if (error.code === CLIENT_CODES.network || error.code === CLIENT_CODES.badResponse)
      return t('upload.failed');
    return error.msg;
  }
  return t('upload.failed');
}

/**
 * The image about to be sent: chosen through the hidden file input, uploaded at once through the upload
 * checks (purpose `support`), then named by the message that sends it.
 */
function useAttachment() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);
  const [state, setState] = useState<AttachmentState>({ kind: 'none' });
  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );
  async function start(file: File) {
    const problem = fileProblem(file);
    if (problem !== null) {
      setState({ kind: 'failed', message: tContract(problem) });
      return;
    }
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState({ kind: 'uploading' });
    try {
      const bytes = new Blob([await file.arrayBuffer()], { type: file.type });
      const uploaded = await uploadPhoto(bytes, 'support', current.signal);
      if (controller.current === current) setState({ kind: 'ready', id: uploaded.id });
    } catch (failure) {
      if (controller.current === current) setState({ kind: 'failed', message: failureMessage(failure, t) });
    }
  }
  function clear() {
    controller.current?.abort();
    controller.current = null;
    setState({ kind: 'none' });
  }
  return { input, state, start, clear };
}

function AttachmentPreview({ state, onClear }: { state: AttachmentState; onClear: () => void }) {
  const { t } = useTranslation();
  if (state.kind === 'none') return null;
  return (
    <div className="support-chat__attachment" data-testid="support-attachment" data-state={state.kind}>
      {state.kind === 'ready' && <AuthImage uploadId={state.id} alt={t('support.attached')} />}
      <span role="status" aria-live="polite">
        {state.kind === 'uploading'
          ? t('upload.uploading')
          : state.kind === 'failed'
            ? state.message
            : t('support.attached')}
      </span>
      {state.kind !== 'uploading' && (
        <Button size="small" fill="none" onClick={onClear}>
          {t('support.removeImage')}
        </Button>
      )}
    </div>
  );
}
