import { zodResolver } from '@hookform/resolvers/zod';
import { ERRORS } from '@kabuto/contract';
import { Button, List } from 'antd-mobile';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyRefusalToField, applyServerIssues } from '@kabuto/client/server-issues';
import { navigateBack } from '@/shared/navigation/nav';
import { useUserInfo } from '@/shared/session/user-info-query';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import {
  changeTxnPasswordFormSchema,
  useChangeTxnPassword,
  type ChangeTxnPasswordInput,
  type ChangeTxnPasswordOutput,
} from '../api/change-txn-password';
import {
  setTxnPasswordFormSchema,
  useSetTxnPassword,
  type SetTxnPasswordInput,
  type SetTxnPasswordOutput,
} from '../api/set-txn-password';

/** /subPackages/transactionPassions/transactionPassions: set the transaction password, or change it. */
export function TransactionPasswordPage() {
  const { t } = useTranslation();
  const { userInfo } = useUserInfo();
  return (
    <RequireLogin>
      {userInfo === null ? (
        <PageLoading />
      ) : (
        <>
          <List>
            <List.Item extra={userInfo.has_txn_password ? t('txnPassword.isSet') : t('txnPassword.notSet')}>
              {t('txnPassword.status')}
            </List.Item>
          </List>
          {userInfo.has_txn_password ? <ChangeTxnPasswordForm /> : <SetTxnPasswordForm />}
        </>
      )}
    </RequireLogin>
  );
}

function SetTxnPasswordForm() {
  const { t } = useTranslation();
  const mutation = useSetTxnPassword();
  const form = useForm<SetTxnPasswordInput, unknown, SetTxnPasswordOutput>({
    resolver: zodResolver(setTxnPasswordFormSchema),
    defaultValues: { login_password: '', new_password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => {
        showSuccess(t('txnPassword.setSuccess'));
        navigateBack();
      },
      onError: (error) => {
        applyServerIssues(error, ['login_password', 'new_password', 'confirm_password'], form.setError);
        applyRefusalToField(error, { [ERRORS.PASSWORD_WRONG.code]: 'login_password' }, form.setError);
      },
    });
  });
  return (
    <form
      className="form-page"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={t('txnPassword.submitSet')}
    >
      <p className="form-page__intro">{t('txnPassword.setIntro')}</p>
      <TextField
        control={form.control}
        name="login_password"
        label={t('txnPassword.loginPassword')}
        placeholder={t('txnPassword.loginPasswordPlaceholder')}
        type="password"
        autoComplete="current-password"
        maxLength={128}
      />
      <TextField
        control={form.control}
        name="new_password"
        label={t('txnPassword.new')}
        placeholder={t('txnPassword.newPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <TextField
        control={form.control}
        name="confirm_password"
        label={t('txnPassword.confirm')}
        placeholder={t('txnPassword.confirmPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <Button block color="primary" size="large" type="submit" loading={mutation.isPending}>
        {t('txnPassword.submitSet')}
      </Button>
    </form>
  );
}

function ChangeTxnPasswordForm() {
  const { t } = useTranslation();
  const mutation = useChangeTxnPassword();
  const form = useForm<ChangeTxnPasswordInput, unknown, ChangeTxnPasswordOutput>({
    resolver: zodResolver(changeTxnPasswordFormSchema),
    defaultValues: { old_password: '', new_password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => {
        showSuccess(t('txnPassword.changeSuccess'));
        navigateBack();
      },
      onError: (error) => {
        applyServerIssues(error, ['old_password', 'new_password', 'confirm_password'], form.setError);
        applyRefusalToField(error, { [ERRORS.TXN_PASSWORD_WRONG.code]: 'old_password' }, form.setError);
      },
    });
  });
  return (
    <form
      className="form-page"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={t('txnPassword.submitChange')}
    >
      <p className="form-page__intro">{t('txnPassword.changeIntro')}</p>
      <TextField
        control={form.control}
        name="old_password"
        label={t('txnPassword.old')}
        placeholder={t('txnPassword.oldPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <TextField
        control={form.control}
        name="new_password"
        label={t('txnPassword.new')}
        placeholder={t('txnPassword.newPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <TextField
        control={form.control}
        name="confirm_password"
        label={t('txnPassword.confirm')}
        placeholder={t('txnPassword.confirmPlaceholder')}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
      />
      <Button block color="primary" size="large" type="submit" loading={mutation.isPending}>
        {t('txnPassword.submitChange')}
      </Button>
    </form>
  );
}
