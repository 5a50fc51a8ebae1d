import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCOUNT_TYPES,
  ERRORS,
  YUCHO_BANK_CODE,
  type TAccountType,
  type TBankAccount,
  type TZenginEntry,
} from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useController, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldIssuesOf, isApiError } from '@kabuto/client/api-error';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireVerified } from '@/shared/ui/require-verified';
import { Segmented } from '@/shared/ui/segmented';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess, showToast } from '@/shared/ui/overlays';
import {
  bankAccountFormSchema,
  bankAccountsQuery,
  useAddBankAccount,
  type BankAccountFormInput,
  type BankAccountFormOutput,
} from '../api/bank-accounts';
import { identityQuery } from '../api/identity';
import { AuthImage } from '@/shared/ui/auth-image';
import { PasswordPrompt } from './password-prompt';
import { PhotoUpload } from './photo-upload';
import { ReviewStatus } from './review-status';
import { ZenginPicker } from './zengin-picker';

/** /subPackages/bankAccount/bankAccount: the user's own-name accounts for withdrawals; add or change one. */
export function BankAccountPage() {
  return (
    <RequireVerified>
      <BankAccounts />
    </RequireVerified>
  );
}

/** What the form is doing: nothing, adding an account, or replacing one. */
type Editing = null | { replaces: TBankAccount | null };

function BankAccounts() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data, isPending } = useQuery(bankAccountsQuery(userId, token));
  const [editing, setEditing] = useState<Editing>(null);
  const accounts = (data?.items ?? []).filter((a) => a.status !== 'replaced');

  if (editing !== null) {
    return (
      <BankAccountForm
        replaces={editing.replaces}
        onDone={() => {
          setEditing(null);
        }}
      />
    );
  }
  return (
    <div className="funds-page">
      <p className="form-page__intro">{t('bankAccount.intro')}</p>
      {isPending ? (
        <PageLoading />
      ) : accounts.length === 0 ? (
        <EmptyState description={t('bankAccount.empty')} />
      ) : (
        <ul className="funds-list" data-testid="bank-accounts" aria-label={t('titles.bankAccount')}>
          {accounts.map((account) => (
            <li key={account.id} className="funds-card" data-testid="bank-account">
              <div className="funds-card__head">
                <strong>{account.bank_name}</strong>
                <ReviewStatus status={account.status} />
              </div>
              <dl className="funds-details">
                <div>
                  <dt>{t('bankAccount.branch')}</dt>
                  <dd>
                    {account.branch_name} ({account.branch_number})
                  </dd>
                </div>
                <div>
                  <dt>{t('bankAccount.accountNumber')}</dt>
                  <dd>
                    {t(`banking.accountTypes.${account.account_type}`)} {account.account_number}
                  </dd>
                </div>
                <div>
                  <dt>{t('bankAccount.holderName')}</dt>
                  <dd>{account.holder_name}</dd>
                </div>
              </dl>
              {account.status === 'rejected' && account.reason !== null && (
                <p className="funds-reason">
                  <strong>{t('funds.reason')}:</strong> {account.reason}
                </p>
              )}
              {account.image_upload_id !== null && (
                <AuthImage uploadId={account.image_upload_id} alt={t('bankAccount.image')} />
              )}
              <Button
                size="small"
                fill="outline"
                onClick={() => {
                  setEditing({ replaces: account });
                }}
              >
                {t('bankAccount.change')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        block
        color="primary"
        onClick={() => {
          setEditing({ replaces: null });
        }}
      >
        {t('bankAccount.add')}
      </Button>
      <Button
        block
        fill="none"
        onClick={() => {
          navigateTo(PAGE_PATHS.accountLog);
        }}
      >
        {t('bankAccount.toLog')}
      </Button>
    </div>
  );
}

function BankAccountForm({ replaces, onDone }: { replaces: TBankAccount | null; onDone: () => void }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  // The holder must match the reading given at account opening (katakana, as banks write names); a customer
  // verified before the application asked for it is matched with the verified name (ADR 0023).
  const identity = useQuery(identityQuery(userId, token)).data;
  const verifiedName = identity?.application?.full_name_kana ?? identity?.full_name ?? null;
  const mutation = useAddBankAccount();
  const [imageId, setImageId] = useState('');
  const [pending, setPending] = useState<BankAccountFormOutput | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [bank, setBank] = useState<TZenginEntry | null>(null);
  const [branch, setBranch] = useState<TZenginEntry | null>(null);
  const [yucho, setYucho] = useState(false);
  const form = useForm<BankAccountFormInput, unknown, BankAccountFormOutput>({
    resolver: zodResolver(bankAccountFormSchema),
    // A field that is not shown (branch and number, or ゆうちょ's 記号・番号) is not sent.
    shouldUnregister: true,
    defaultValues: {
      holder_name: replaces?.holder_name ?? '',
      bank_code: '',
      branch_code: '',
      account_type: 'ordinary',
      account_number: '',
    },
  });
  const bankField = useController({ control: form.control, name: 'bank_code' });
  const typeField = useController({ control: form.control, name: 'account_type' });
  const symbol = useWatch({ control: form.control, name: 'yucho.symbol' }) ?? '';
  const isYucho = bank?.code === YUCHO_BANK_CODE;
  const byPassbook = isYucho && yucho;
  const onSubmit = form.handleSubmit((values) => {
    setPasswordError(null);
    setPending(values);
  });

  const send = (password: string) => {
    if (pending === null) return;
    mutation.mutate(
      {
        ...pending,
        ...(imageId === '' ? {} : { image_upload_id: imageId }),
        login_password: password,
        ...(replaces === null ? {} : { replaces_id: replaces.id }),
      },
      {
        onSuccess: () => {
          setPending(null);
          showSuccess(replaces === null ? t('bankAccount.added') : t('bankAccount.changed'));
          onDone();
        },
        onError: (error) => {
          if (!isApiError(error)) return;
          const passwordIssue = fieldIssuesOf(error).find((i) => i.field === 'login_password');
          if (error.code === ERRORS.PASSWORD_WRONG.code || passwordIssue !== undefined) {
            setPasswordError(passwordIssue?.message ?? error.msg);
            return;
          }
          setPending(null);
          if (error.code === ERRORS.BANK_HOLDER_MISMATCH.code) {
            form.setError('holder_name', { type: 'server', message: error.msg }, { shouldFocus: true });
            return;
          }
          if (error.code === ERRORS.YUCHO_NUMBER_INVALID.code) {
            form.setError('yucho.number', { type: 'server', message: error.msg });
            return;
          }
          applyServerIssues(
            error,
            ['holder_name', 'account_number', 'bank_code', 'branch_code', 'account_type'],
            form.setError,
          );
          showToast(error.msg, 2000);
        },
      },
    );
  };

  return (
    <>
      <form
        className="form-page"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        aria-label={replaces === null ? t('bankAccount.add') : t('bankAccount.change')}
      >
        <h2 className="funds-heading">
          {replaces === null ? t('bankAccount.add') : t('bankAccount.change')}
        </h2>
        <p className="funds-note" data-testid="holder-rule">
          {verifiedName === null
            ? t('bankAccount.holderRule')
            : t('bankAccount.holderRuleNamed', { name: verifiedName })}
        </p>
        <ZenginPicker
          kind="bank"
          value={bank}
          error={bankField.fieldState.error?.message}
          onChange={(entry) => {
            setBank(entry);
            setBranch(null);
            setYucho(entry.code === YUCHO_BANK_CODE);
            bankField.field.onChange(entry.code);
          }}
        />
        {isYucho && (
          <div className="zengin-yucho">
            <span id="yucho-switch-label">{t('banking.yuchoToggle')}</span>
            <Switch
              checked={yucho}
              onChange={setYucho}
              aria-labelledby="yucho-switch-label"
              data-testid="yucho-toggle"
            />
          </div>
        )}
        {byPassbook ? (
          <>
            <p className="funds-note">{t('banking.yuchoNote')}</p>
            <TextField
              control={form.control}
              name="yucho.symbol"
              label={t('banking.yuchoSymbol')}
              placeholder={t('banking.yuchoSymbolPlaceholder')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={5}
            />
            <TextField
              control={form.control}
              name="yucho.number"
              label={t('banking.yuchoNumber')}
              placeholder={t('banking.yuchoNumberPlaceholder')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={8}
            />
          </>
        ) : (
          <>
            <BranchField
              control={form.control}
              bankCode={bank?.code ?? ''}
              value={branch}
              onChange={setBranch}
            />
            <TextField
              control={form.control}
              name="account_number"
              label={t('bankAccount.accountNumber')}
              placeholder={t('bankAccount.accountNumberPlaceholder')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={7}
            />
          </>
        )}
        {!(byPassbook && symbol.startsWith('0')) && (
          <Segmented<TAccountType>
            label={t('banking.accountType')}
            value={typeField.field.value ?? 'ordinary'}
            options={ACCOUNT_TYPES.filter((type) => !byPassbook || type !== 'checking').map((type) => ({
              value: type,
              label: t(`banking.accountTypes.${type}`),
            }))}
            onChange={typeField.field.onChange}
            testId="account-type"
          />
        )}
        <TextField
          control={form.control}
          name="holder_name"
          label={t('banking.holderKana')}
          placeholder={t('banking.holderKanaPlaceholder')}
          maxLength={60}
        />
        <p className="funds-note">{t('banking.holderKanaNote')}</p>
        <PhotoUpload
          label={t('bankAccount.image')}
          purpose="bank_account"
          value={imageId}
          onChange={setImageId}
          optional
          testId="photo-bank_account"
        />
        <Button block color="primary" size="large" type="submit" loading={mutation.isPending}>
          {t('bankAccount.save')}
        </Button>
        <Button block fill="none" onClick={onDone}>
          {t('common.cancel')}
        </Button>
      </form>
      <PasswordPrompt
        visible={pending !== null}
        busy={mutation.isPending}
        error={passwordError}
        onConfirm={send}
        onCancel={() => {
          if (!mutation.isPending) setPending(null);
        }}
      />
    </>
  );
}

/** The branch picker, bound to `branch_code` (unregistered when ゆうちょ's 記号・番号 replace it). */
function BranchField({
  control,
  bankCode,
  value,
  onChange,
}: {
  control: Control<BankAccountFormInput, unknown, BankAccountFormOutput>;
  bankCode: string;
  value: TZenginEntry | null;
  onChange: (entry: TZenginEntry) => void;
}) {
  const field = useController({ control, name: 'branch_code' });
  return (
    <ZenginPicker
      kind="branch"
      bankCode={bankCode}
      value={value}
      disabled={bankCode === ''}
      error={field.fieldState.error?.message}
      onChange={(entry) => {
        onChange(entry);
        field.field.onChange(entry.code);
      }}
    />
  );
}
