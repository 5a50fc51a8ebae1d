import {
  ZConsoleStepUpGranted,
  ZEmpty,
  ZPasskey,
  ZPasskeyList,
  ZWebAuthnOptionsResponse,
  type TConsoleStepUpRequest,
  type TPasskey,
} from '@kabuto/contract';
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, List, Modal, Space, Typography } from 'antd';
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
 * A fresh step-up with one of the operator's passkeys (ADR 0049): the token the add or the removal needs.
 */
async function passkeyStepUp(request: TConsoleStepUpRequest): Promise<string> {
  const { options } = await api.request({
    path: '/step-up/options',
    body: request,
    schema: ZWebAuthnOptionsResponse,
    notify: false,
  });
  const credential = await startAuthentication({
    optionsJSON: options,
  });
  const granted = await api.request({
    path: '/step-up/verify',
    body: { credential },
    schema: ZConsoleStepUpGranted,
    notify: false,
  });
  return granted.step_up_token;
}

/**
 * The operator's own passkeys (ADR 0033): add one with the browser's passkey prompt, see and remove them.
 * An administrator without one lands here and can go nowhere else until one is added. Adding and removing
 * need a fresh confirmation (ADR 0049): one of the operator's passkeys, or the password for the first.
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
  const [askPassword, setAskPassword] = useState(false);
  const [passwordForm] = Form.useForm<{ password: string }>();
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

  /** Registers a new passkey with the step-up token already obtained. */
  const register = async (stepUpToken: string) => {
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
      await api.request({
        path: '/passkeys',
        body: { credential, step_up_token: stepUpToken },
        schema: ZPasskey,
        notify: false,
      });
      void message.success(t('passkeys.added'));
      await refresh();
    } catch (error) {
      // the browser's own refusal (cancelled, no authenticator) reads as the generic failure
      setFailure(isApiError(error) ? error.msg : t('passkeys.browserFailed'));
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    setFailure(null);
    // the first passkey: the password confirms it is the operator; after that, one of their passkeys
    if ((list.data?.items.length ?? 0) === 0) {
      passwordForm.resetFields();
      setAskPassword(true);
      return;
    }
    setBusy(true);
    let token: string;
    try {
      token = await passkeyStepUp({ action: 'add_passkey' });
    } catch (error) {
      setFailure(isApiError(error) ? error.msg : t('passkeys.browserFailed'));
      setBusy(false);
      return;
    }
    await register(token);
  };

  const addWithPassword = async ({ password }: { password: string }) => {
    setFailure(null);
    let token: string;
    try {
      const granted = await api.request({
        path: '/step-up/password',
        body: { request: { action: 'add_passkey' }, password },
        schema: ZConsoleStepUpGranted,
        notify: false,
      });
      token = granted.step_up_token;
    } catch (error) {
      passwordForm.setFields([
        { name: 'password', errors: [isApiError(error) ? error.msg : t('passkeys.browserFailed')] },
      ]);
      return;
    }
    setAskPassword(false);
    await register(token);
  };

  const remove = async (passkey: TPasskey) => {
    setFailure(null);
    try {
      const token = await passkeyStepUp({ action: 'remove_passkey', passkey_id: passkey.id });
      await api.request({
        path: `/passkeys/${passkey.id}/remove`,
        body: { step_up_token: token },
        schema: ZEmpty,
        notify: false,
      });
      void message.success(t('passkeys.removed'));
      await refresh();
    } catch (error) {
      setFailure(isApiError(error) ? error.msg : t('passkeys.browserFailed'));
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
      <Typography.Paragraph type="secondary">{t('passkeys.stepUpNote')}</Typography.Paragraph>
      <Modal
        open={askPassword}
        title={t('passkeys.stepUpTitle')}
        okText={t('passkeys.continue')}
        cancelText={t('common.cancel')}
        onOk={() => {
          passwordForm.submit();
        }}
        onCancel={() => {
          setAskPassword(false);
        }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('passkeys.stepUpPassword')}</Typography.Paragraph>
        <Form form={passwordForm} layout="vertical" onFinish={(values) => void addWithPassword(values)}>
          <Form.Item
            name="password"
            label={t('passkeys.password')}
            rules={[{ required: true, message: t('passkeys.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
        </Form>
      </Modal>
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
