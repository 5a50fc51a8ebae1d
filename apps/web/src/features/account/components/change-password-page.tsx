import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Result } from 'antd-mobile';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { navigateBack } from '@/shared/navigation/nav';
import { TextField } from '@/shared/ui/text-field';
import { RequireLogin } from '@/shared/ui/require-login';
import {
  changePasswordFormSchema,
  useChangePassword,
  type ChangePasswordInput,
  type ChangePasswordOutput,
} from '../api/change-password';

export function ChangePasswordPage() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm<ChangePasswordInput, unknown, ChangePasswordOutput>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { old_password: '', new_password: '', confirm_password: '' },
  });

  const onSubmit = form.handleSubmit((values) => {
    change.mutate(values, {
      onError: (error) => {
        applyServerIssues(error, ['old_password', 'new_password', 'confirm_password'], form.setError);
      },
    });
  });

  if (change.isSuccess) {
    const revoked = change.data.revoked_sessions;
    return (
      <RequireLogin>
        <Result
          status="success"
          title={t('changePassword.success')}
          description={
            revoked > 0
              ? t('changePassword.sessionsRevoked', { count: revoked })
              : t('changePassword.noOtherSessions')
          }
        />
        <div className="form-page">
          <Button block color="primary" onClick={navigateBack}>
            {t('common.ok')}
          </Button>
        </div>
      </RequireLogin>
    );
  }

  return (
    <RequireLogin>
      <form
        className="form-page"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={t('titles.changePassword')}
      >
        <TextField
          control={form.control}
          name="old_password"
          label={t('changePassword.old')}
          placeholder={t('changePassword.oldPlaceholder')}
          type="password"
          autoComplete="current-password"
          maxLength={128}
        />
        <TextField
          control={form.control}
          name="new_password"
          label={t('changePassword.new')}
          placeholder={t('changePassword.newPlaceholder')}
          type="password"
          autoComplete="new-password"
          maxLength={10}
        />
        <TextField
          control={form.control}
          name="confirm_password"
          label={t('changePassword.confirm')}
          placeholder={t('changePassword.confirmPlaceholder')}
          type="password"
          autoComplete="new-password"
          maxLength={10}
        />
        <Button block color="primary" size="large" type="submit" loading={change.isPending}>
          {t('changePassword.submit')}
        </Button>
      </form>
    </RequireLogin>
  );
}
