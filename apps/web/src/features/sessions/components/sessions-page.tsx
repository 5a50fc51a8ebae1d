import { Button, List, Tag } from 'antd-mobile';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { RequireLogin } from '@/shared/ui/require-login';
import { showSuccess } from '@/shared/ui/overlays';
import { sessionListQuery, useEndSession } from '../api/sessions';
import { dialog } from '@/shared/ui/overlays';

/** Settings → signed-in devices: each session's device, network and times; any other can be ended. */
export function SessionsPage() {
  return (
    <RequireLogin>
      <SessionList />
    </RequireLogin>
  );
}

function SessionList() {
  const { t } = useTranslation();
  const locale = useLocale();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const list = useQuery(sessionListQuery(userId, token));
  const end = useEndSession();

  const onEnd = async (id: number) => {
    const ok = await dialog.confirm({
      content: t('sessions.endConfirm'),
      confirmText: t('sessions.end'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    end.mutate(id, {
      onSuccess: () => {
        showSuccess(t('sessions.ended'));
      },
    });
  };

  return (
    <div className="form-page" data-testid="sessions-page">
      <p>{t('sessions.intro')}</p>
      <List>
        {(list.data?.items ?? []).map((s) => (
          <List.Item
            key={s.id}
            data-testid="session-item"
            description={
              <>
                <div>{s.place ?? t('sessions.unknownPlace')}</div>
                <div>{t('sessions.started', { date: formatDateTime(s.started_at, locale) })}</div>
                <div>{t('sessions.lastSeen', { date: formatDateTime(s.last_seen_at, locale) })}</div>
              </>
            }
            extra={
              s.current ? (
                <Tag color="primary">{t('sessions.current')}</Tag>
              ) : (
                <Button
                  size="small"
                  color="danger"
                  fill="outline"
                  loading={end.isPending && end.variables === s.id}
                  onClick={() => void onEnd(s.id)}
                >
                  {t('sessions.end')}
                </Button>
              )
            }
          >
            {s.device ?? t('sessions.unknownDevice')}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
