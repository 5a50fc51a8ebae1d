import { zodResolver } from '@hookform/resolvers/zod';
import { ERRORS, SMS_RESEND_SECONDS, ZPhone } from '@kabuto/contract';
import { Button, Checkbox } from 'antd-mobile';
import { useId, useState } from 'react';
import { useForm, useController } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '@/shared/navigation/router';
import { navigateTo, switchTab } from '@/shared/navigation/nav';
import { PAGE_PATHS, TAB_PATHS } from '@/shared/navigation/routes';
import { isApiError } from '@kabuto/client/api-error';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { FieldError } from '@/shared/ui/field-error';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import { passkeysSupported, showPasskeyFailure } from '@/shared/passkeys/support';
import { loginFormSchema, useLogin, type LoginFormInput, type LoginFormOutput } from '../api/login';
import { hasNoPasskey, usePasskeyLogin } from '../api/passkey-login';

/** Set once the user has answered "not now" to the passkey offer on this device. */
const OFFER_DISMISSED = 'kabuto.passkeyOfferDismissed';

/**
 * Right after a password sign-in, a user without a passkey is offered one, with what it is and why
 * (dismissible; asked again on another device or after the answer is cleared).
 */
async function offerPasskey(t: (key: string) => string): Promise<boolean> {
  if (!passkeysSupported() || localStorage.getItem(OFFER_DISMISSED) === '1') return false;
  if (!(await hasNoPasskey().catch(() => false))) return false;
  const accepted = await dialog.confirm({
    title: t('passkeys.offerTitle'),
    content: t('passkeys.offerBody'),
    confirmText: t('passkeys.offerAccept'),
    cancelText: t('passkeys.offerLater'),
  });
  if (!accepted) localStorage.setItem(OFFER_DISMISSED, '1');
  return accepted;
}
import { useSendSmsCode } from '../api/send-sms-code';
import { useCountdown } from '../hooks/use-countdown';
import { dialog } from '@/shared/ui/overlays';

const doc = (section: string) => `${PAGE_PATHS.userAgreement}?section=${section}`;

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const login = useLogin();
  const passkeyLogin = usePasskeyLogin();
  const sendCode = useSendSmsCode();
  const countdown = useCountdown();
  // once failed sign-ins hold the account back, the owner may sign in now with an SMS code (ADR 0030)
  const [withCode, setWithCode] = useState(false);
  const form = useForm<LoginFormInput, unknown, LoginFormOutput>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { account: params.get('phone') ?? '', password: '', agree: false, sms_code: '' },
  });
  const agree = useController({ control: form.control, name: 'agree' });
  const agreeError = agree.fieldState.error?.message;
  const agreeId = useId();

  const onSubmit = form.handleSubmit((values) => {
    login.mutate(values, {
      onSuccess: () => {
        showSuccess(t('login.success'));
        switchTab(TAB_PATHS.home);
        void offerPasskey(t).then((accepted) => {
          if (accepted) navigateTo(PAGE_PATHS.passkeys);
        });
      },
      onError: (error) => {
        if (isApiError(error) && error.code === ERRORS.LOGIN_THROTTLED.code) setWithCode(true);
        applyServerIssues(error, ['account', 'password', 'agree', 'sms_code'], form.setError);
      },
    });
  });

  const onSendCode = () => {
    const parsed = ZPhone.safeParse(form.getValues('account'));
    if (!parsed.success) {
      form.setError('account', {
        type: 'validate',
        message: parsed.error.issues[0]?.message ?? 'validation.phoneFormat',
      });
      return;
    }
    form.clearErrors('account');
    sendCode.mutate(
      { phone: parsed.data, purpose: 'login' },
      {
        onSuccess: (data) => {
          // the same words whether or not the number is registered: the server does not say
          showSuccess(t('login.codeSent'));
          countdown.start(data.resend_after_seconds > 0 ? data.resend_after_seconds : SMS_RESEND_SECONDS);
        },
      },
    );
  };

  return (
    <form className="form-page" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={t('titles.login')}>
      <TextField
        control={form.control}
        name="account"
        label={t('login.account')}
        placeholder={t('login.accountPlaceholder')}
        type="tel"
        inputMode="tel"
        autoComplete="username"
        maxLength={32}
      />
      <TextField
        control={form.control}
        name="password"
        label={t('login.password')}
        placeholder={t('login.passwordPlaceholder')}
        type="password"
        autoComplete="current-password"
        maxLength={128}
      />
      {withCode && (
        <>
          <p className="form-page__intro" role="status">
            {t('login.codeHint')}
          </p>
          <TextField
            control={form.control}
            name="sms_code"
            label={t('register.smsCode')}
            placeholder={t('register.smsCodePlaceholder')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            extra={
              <Button
                size="small"
                color="primary"
                fill="outline"
                type="button"
                className="send-code"
                disabled={countdown.remaining > 0}
                loading={sendCode.isPending}
                onClick={onSendCode}
              >
                {countdown.remaining > 0
                  ? t('register.resendIn', { seconds: countdown.remaining })
                  : t('register.sendCode')}
              </Button>
            }
          />
        </>
      )}
      <div className="agreement-field">
        {/*
          The box and its sentence are apart: the box (antd-mobile's label around the input) ticks, the
          sentence is the input's <label> (its accessible name), and a tap on a document link inside it opens
          the document without ticking the box (a link is interactive content: the label does not activate).
        */}
        <div className="agreement-field__row">
          <Checkbox
            id={agreeId}
            checked={agree.field.value}
            onChange={(checked) => {
              agree.field.onChange(checked);
            }}
            style={{ '--icon-size': '18px', '--gap': '0' }}
          />
          <label htmlFor={agreeId} className="agreement-field__text">
            <Trans
              i18nKey="login.agreeText"
              components={{
                ua: <Link to={doc('user')} />,
                st: <Link to={doc('security')} />,
                pp: <Link to={doc('privacy')} />,
              }}
            />
          </label>
        </div>
        <FieldError id={`${agreeId}-error`} message={agreeError} />
      </div>
      <Button block color="primary" size="large" type="submit" loading={login.isPending}>
        {t('login.submit')}
      </Button>
      {passkeysSupported() && (
        <Button
          block
          fill="outline"
          color="primary"
          size="large"
          type="button"
          loading={passkeyLogin.isPending}
          onClick={() => {
            passkeyLogin.mutate(undefined, {
              onSuccess: () => {
                showSuccess(t('login.success'));
                switchTab(TAB_PATHS.home);
              },
              onError: showPasskeyFailure,
            });
          }}
        >
          {t('passkeys.login')}
        </Button>
      )}
      <p className="form-page__switch">
        {t('login.noAccount')} <Link to={PAGE_PATHS.register}>{t('login.toRegister')}</Link>
      </p>
    </form>
  );
}
