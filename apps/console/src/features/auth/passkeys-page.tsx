import { ZEmpty, ZPasskey, ZPasskeyList, ZWebAuthnOptionsResponse, type TPasskey } from '@kabuto/contract';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, List, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { isApiError } from '@kabuto/client/api-error';
import { api } from '@/shared/client';
import { dateTimeText } from '@/shared/format';
import { useLocale } from '@/shared/locale';
import { useMe } from '@/shared/queries';
import { sessionStore, useSession } from '@/shared/session';
import { AuthFrame } from './login-page';

/**
 * The operator's own passkeys (ADR 0033): add one with the browser's passkey prompt, see and remove them.
 * An administrator without one lands here and can go nowhere else until one is added.
 */
export function PasskeysPage() {
  const { t, locale } = useLocale();
  const { token } = useSession();
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useQuery({
    queryKey: ['own-passkeys', token],
    queryFn: () => api.request({ path: '/passkeys', schema: ZPasskeyList }),
    enabled: token !== null,
  });

  if (token === null) return <Navigate to="/login" replace />;
  if (me.data?.must_change_password) return <Navigate to="/password" replace />;
  const held = me.data?.passkey_required ?? false;

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['own-passkeys'] });
    await queryClient.invalidateQueries({ queryKey: ['me'] });
  };

  const add = async () => {
    setFailure(null);
    setBusy(true);
    try {
      const { options } = await api.request({
        path: '/passkeys/options',
        body: {},
        schema: ZWebAuthnOptionsResponse,
        notify: false,
      });
      const credential = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      await api.request({ path: '/passkeys', body: { credential }, schema: ZPasskey, notify: false });
      void message.success(t('passkeys.added'));
      await refresh();
    } catch (error) {
      // the browser's own refusal (cancelled, no authenticator) reads as the generic failure
      setFailure(isApiError(error) ? error.msg : t('passkeys.browserFailed'));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (passkey: TPasskey) => {
    setFailure(null);
    try {
      await api.request({ path: `/passkeys/${passkey.id}/remove`, body: {}, schema: ZEmpty, notify: false });
      void message.success(t('passkeys.removed'));
      await refresh();
    } catch (error) {
      setFailure(isApiError(error) ? error.msg : String(error));
    }
  };

  const logout = async () => {
    try {
      await api.request({ path: '/logout', body: {}, schema: ZEmpty, notify: false });
    } catch {
      // signing out locally is what matters; the session ends on the server at its expiry anyway
    }
    sessionStore.clear();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <AuthFrame title={t('passkeys.title')}>
      {held && <Alert type="warning" showIcon message={t('passkeys.held')} style={{ marginBottom: 16 }} />}
      <Typography.Paragraph type="secondary">{t('passkeys.intro')}</Typography.Paragraph>
      {failure !== null && (
        <Alert type="error" role="alert" showIcon message={failure} style={{ marginBottom: 16 }} />
      )}
      <List
        aria-label={t('passkeys.title')}
        loading={list.isPending}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('passkeys.none') }}
        renderItem={(p) => (
          <List.Item
            actions={[
              <Button key="remove" danger size="small" onClick={() => void remove(p)}>
                {t('common.remove')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={p.name}
              description={t('passkeys.dates', {
                created: dateTimeText(p.created_at, locale),
                used:
                  p.last_used_at === null ? t('passkeys.neverUsed') : dateTimeText(p.last_used_at, locale),
              })}
            />
          </List.Item>
        )}
      />
      <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
        <Button type="primary" block loading={busy} onClick={() => void add()}>
          {t('passkeys.add')}
        </Button>
        {held ? (
          <Button block onClick={() => void logout()}>
            {t('nav.logout')}
          </Button>
        ) : (
          <Link to="/">{t('common.backToDashboard')}</Link>
        )}
      </Space>
    </AuthFrame>
  );
}
