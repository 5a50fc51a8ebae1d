import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog } from 'antd-mobile';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '@/shared/ui/text-field';
import { loginPasswordSchema } from '../api/bank-accounts';

type Input = z.input<typeof loginPasswordSchema>;
type Output = z.output<typeof loginPasswordSchema>;

/** Asks for the login password again before a bank account is added or changed. */
export function PasswordPrompt({
  visible,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  visible: boolean;
  busy: boolean;
  /** The server's refusal (a wrong password), shown under the field. */
  error: string | null;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(loginPasswordSchema),
    defaultValues: { login_password: '' },
  });
  const onSubmit = form.handleSubmit((values) => {
    onConfirm(values.login_password);
  });
  return (
    <Dialog
      visible={visible}
      destroyOnClose
      afterClose={() => {
        form.reset();
      }}
      onClose={onCancel}
      closeOnMaskClick={!busy}
      title={t('bankAccount.passwordTitle')}
      content={
        <form
          className="password-prompt"
          onSubmit={(e) => void onSubmit(e)}
          noValidate
          aria-label={t('bankAccount.passwordTitle')}
        >
          <p className="funds-note">{t('bankAccount.passwordBody')}</p>
          <TextField
            control={form.control}
            name="login_password"
            label={t('bankAccount.loginPassword')}
            type="password"
            autoComplete="current-password"
            maxLength={128}
          />
          {error !== null && (
            <p className="text-field__error" role="alert">
              {error}
            </p>
          )}
          <div className="password-prompt__actions">
            <Button block disabled={busy} onClick={onCancel}>
              {t('common.cancel')}
            </Button>
            <Button block color="primary" type="submit" loading={busy}>
              {t('bankAccount.confirm')}
            </Button>
          </div>
        </form>
      }
    />
  );
}
