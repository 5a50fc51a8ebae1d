import { Button, List } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { RequireLogin } from '@/shared/ui/require-login';
import { showSuccess } from '@/shared/ui/overlays';
import { passkeysSupported, showPasskeyFailure } from '@/shared/passkeys/support';
import { passkeyListQuery, useAddPasskey, useRemovePasskey } from '../api/passkeys';
import { RenameDialog } from './rename-dialog';
import { dialog } from '@/shared/ui/overlays';

/** Settings → Passkeys: what each passkey is, when it was added and last used; add and remove (ADR 0031). */
export function PasskeysPage() {
  return (
    <RequireLogin>
      <PasskeyList />
    </RequireLogin>
  );
}

function PasskeyList() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const list = useQuery(passkeyListQuery(userId, token));
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const supported = passkeysSupported();
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);

  const onRemove = async (id: number, name: string) => {
    const ok = await dialog.confirm({
      content: t('passkeys.removeConfirm', { name }),
      confirmText: t('passkeys.remove'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    remove.mutate(id, {
      onSuccess: () => {
        showSuccess(t('passkeys.removed'));
      },
      onError: showPasskeyFailure,
    });
  };

  const items = list.data?.items ?? [];
  return (
    <div className="form-page" data-testid="passkeys-page">
      <RenameDialog
        passkey={renaming}
        onClose={() => {
          setRenaming(null);
        }}
      />
      <p>{t('passkeys.intro')}</p>
      <List>
        {items.length === 0 && list.isSuccess && <List.Item>{t('passkeys.empty')}</List.Item>}
        {items.map((p) => (
          <List.Item
            key={p.id}
            data-testid="passkey-item"
            description={
              <>
                <span>{t('passkeys.created', { date: formatDateTime(p.created_at, locale) })}</span>
                {' · '}
                <span>
                  {p.last_used_at === null
                    ? t('passkeys.neverUsed')
                    : t('passkeys.lastUsed', { date: formatDateTime(p.last_used_at, locale) })}
                </span>
              </>
            }
            extra={
              <span className="passkey-actions">
                <Button
                  size="small"
                  fill="outline"
                  onClick={() => {
                    setRenaming({ id: p.id, name: p.name });
                  }}
                >
                  {t('passkeys.rename')}
                </Button>{' '}
                <Button
                  size="small"
                  color="danger"
                  fill="outline"
                  loading={remove.isPending && remove.variables === p.id}
                  onClick={() => void onRemove(p.id, p.name)}
                >
                  {t('passkeys.remove')}
                </Button>
              </span>
            }
          >
            {p.name}
          </List.Item>
        ))}
      </List>
      {supported ? (
        <Button
          block
          color="primary"
          size="large"
          loading={add.isPending}
          onClick={() => {
            add.mutate(undefined, {
              onSuccess: () => {
                showSuccess(t('passkeys.added'));
              },
              onError: showPasskeyFailure,
            });
          }}
        >
          {t('passkeys.add')}
        </Button>
      ) : (
        <p role="status">{t('passkeys.unsupported')}</p>
      )}
    </div>
  );
}
