import {
  ZOperatorLogin,
  ZOperatorLoginResponse,
  ZWebAuthnOptionsResponse,
  type TOperatorMe,
} from '@kabuto/contract';
import { startAuthentication } from '@simplewebauthn/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Divider, Form, Input, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LanguageSwitcher } from '@/shared/language-switcher';
import { isApiError } from '@kabuto/client/api-error';
import { api } from '@/shared/client';
import { checkForm } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { meQuery } from '@/shared/queries';
import { sessionStore, useSession } from '@/shared/session';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useLocale();
  return (
    <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24 }}>
      <Card style={{ width: 420, maxWidth: '100%' }}>
        <div
          style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 8 }}
        >
          <Typography.Text type="secondary">{t('app.name')}</Typography.Text>
          <LanguageSwitcher />
        </div>
        <Typography.Title level={1} style={{ fontSize: 24 }}>
          {title}
        </Typography.Title>
        {children}
      </Card>
    </main>
  );
}

export function LoginPage() {
  const { t } = useLocale();
  const { token } = useSession();
  const [form] = Form.useForm<{ username: string; password: string }>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  if (token !== null) return <Navigate to="/" replace />;

  const submit = async (values: { username?: string; password?: string }) => {
    setFailure(null);
    const body = checkForm(form, ZOperatorLogin, {
      username: values.username ?? '',
      password: values.password ?? '',
    });
    if (body === null) return;
    setBusy(true);
    try {
      const result = await api.request({
        path: '/login',
        body,
        schema: ZOperatorLoginResponse,
        notify: false,
      });
      // The operator is known: the layout opens the dashboard, the password page for a one-time password,
      // or the passkey page for an administrator who has none yet.
      const me: TOperatorMe = { ...result.operator, passkey_required: result.passkey_required };
      queryClient.setQueryData(meQuery(result.token).queryKey, me);
      sessionStore.signIn(result.token);
    } catch (error) {
      setFailure(isApiError(error) ? error.msg : String(error));
    } finally {
      setBusy(false);
    }
  };

  const passkeySignIn = async () => {
    setFailure(null);
    setBusy(true);
    try {
      const { options } = await api.request({
        path: '/passkey/options',
        body: {},
        schema: ZWebAuthnOptionsResponse,
        notify: false,
      });
      const credential = await startAuthentication({
        optionsJSON: options,
      });
      const result = await api.request({
        path: '/passkey/login',
        body: { credential },
        schema: ZOperatorLoginResponse,
        notify: false,
      });
      const me: TOperatorMe = { ...result.operator, passkey_required: result.passkey_required };
      queryClient.setQueryData(meQuery(result.token).queryKey, me);
      sessionStore.signIn(result.token);
    } catch (error) {
      setFailure(isApiError(error) ? error.msg : t('passkeys.browserFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t('login.title')}>
      <Typography.Paragraph type="secondary">{t('login.note')}</Typography.Paragraph>
      {failure !== null && (
        <Alert type="error" role="alert" showIcon message={failure} style={{ marginBottom: 16 }} />
      )}
      <Form form={form} name="login" layout="vertical" onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item label={t('login.username')} name="username">
          <Input autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item label={t('login.password')} name="password">
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('login.submit')}
        </Button>
      </Form>
      <Divider plain>{t('login.or')}</Divider>
      <Button block loading={busy} onClick={() => void passkeySignIn()}>
        {t('login.passkey')}
      </Button>
    </AuthFrame>
  );
}
