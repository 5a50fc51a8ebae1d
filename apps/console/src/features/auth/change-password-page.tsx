import { OPERATOR_PASSWORD_MIN_LENGTH, ZOperator, ZOperatorPasswordChange } from '@kabuto/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { isApiError } from '@kabuto/client/api-error';
import { api } from '@/shared/client';
import { applyServerIssues, checkForm } from '@/shared/forms';
import { useLocale } from '@/shared/locale';
import { meQuery, useMe } from '@/shared/queries';
import { useSession } from '@/shared/session';
import { AuthFrame } from './login-page';

interface Values {
  old_password?: string;
  new_password?: string;
  confirm_password?: string;
}

export function ChangePasswordPage() {
  const { t } = useLocale();
  const { token } = useSession();
  const me = useMe();
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  if (token === null) return <Navigate to="/login" replace />;
  const forced = me.data?.must_change_password ?? true;

  const submit = async (values: Values) => {
    setFailure(null);
    const body = checkForm(form, ZOperatorPasswordChange, {
      old_password: values.old_password ?? '',
      new_password: values.new_password ?? '',
    });
    if (body === null) return;
    if (values.new_password !== values.confirm_password) {
      form.setFields([{ name: 'confirm_password', errors: [t('password.mismatch')] }]);
      return;
    }
    setBusy(true);
    try {
      await api.request({ path: '/password', body, schema: ZOperator, notify: false });
      // whether an administrator is held until a passkey is added is the server's to say
      await queryClient.invalidateQueries({ queryKey: meQuery(token).queryKey });
      void message.success(t('password.changed'));
      void navigate('/', { replace: true });
    } catch (error) {
      if (!applyServerIssues(form, error)) setFailure(isApiError(error) ? error.msg : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t('password.title')}>
      {forced && (
        <Alert type="warning" showIcon message={t('password.forced')} style={{ marginBottom: 16 }} />
      )}
      {failure !== null && (
        <Alert type="error" role="alert" showIcon message={failure} style={{ marginBottom: 16 }} />
      )}
      <Form
        form={form}
        name="password"
        layout="vertical"
        onFinish={(v) => void submit(v)}
        requiredMark={false}
      >
        {/* For password managers: whose password this is. */}
        <input type="text" hidden readOnly autoComplete="username" value={me.data?.username ?? ''} />
        <Form.Item label={t('password.oldPassword')} name="old_password">
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item
          label={t('password.newPassword')}
          name="new_password"
          extra={t('password.rule', { min: OPERATOR_PASSWORD_MIN_LENGTH })}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item label={t('password.confirmPassword')} name="confirm_password">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('password.submit')}
        </Button>
      </Form>
      {!forced && (
        <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
          <Link to="/">{t('common.backToDashboard')}</Link>
        </Typography.Paragraph>
      )}
    </AuthFrame>
  );
}
