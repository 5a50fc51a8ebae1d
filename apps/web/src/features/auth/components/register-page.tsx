import { zodResolver } from '@hookform/resolvers/zod';
import { SMS_RESEND_SECONDS, ZPhone } from '@kabuto/contract';
import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '@/shared/navigation/router';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { redirectTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import {
  registerFormSchema,
  useRegister,
  type RegisterFormInput,
  type RegisterFormOutput,
} from '../api/register';
import { useSendSmsCode } from '../api/send-sms-code';
import { useCountdown } from '../hooks/use-countdown';

const FIELDS = ['phone', 'password', 'password_confirm', 'invite_code', 'sms_code'] as const;

export function RegisterPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const register = useRegister();
  const sendCode = useSendSmsCode();
  const countdown = useCountdown();
  const [invite] = useState(() => params.get('code') ?? params.get('invite') ?? '');
  const form = useForm<RegisterFormInput, unknown, RegisterFormOutput>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: { phone: '', password: '', password_confirm: '', invite_code: invite, sms_code: '' },
  });

  useEffect(() => {
    if (invite !== '') form.setValue('invite_code', invite);
  }, [invite, form]);

  const onSendCode = () => {
    const parsed = ZPhone.safeParse(form.getValues('phone'));
    if (!parsed.success) {
      form.setError('phone', {
        type: 'validate',
        message: parsed.error.issues[0]?.message ?? 'validation.phoneFormat',
      });
      return;
    }
    form.clearErrors('phone');
    sendCode.mutate(
      { phone: parsed.data, purpose: 'register' },
      {
        onSuccess: (data) => {
          showSuccess(t('register.codeSent'));
          countdown.start(data.resend_after_seconds > 0 ? data.resend_after_seconds : SMS_RESEND_SECONDS);
        },
        onError: (error) => {
          applyServerIssues(error, ['phone'], form.setError);
        },
      },
    );
  };

  const onSubmit = form.handleSubmit((values) => {
    register.mutate(values, {
      onSuccess: () => {
        showSuccess(t('register.success'), 2000);
        redirectTo(`${PAGE_PATHS.login}?phone=${encodeURIComponent(values.phone)}`);
      },
      onError: (error) => {
        applyServerIssues(error, FIELDS, form.setError);
      },
    });
  });

  const sendLabel =
    countdown.remaining > 0
      ? t('register.resendIn', { seconds: countdown.remaining })
      : t('register.sendCode');

  return (
    <form
      className="form-page"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={t('titles.register')}
    >
      <TextField
        control={form.control}
        name="phone"
        label={t('register.phone')}
        placeholder={t('register.phonePlaceholder')}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={32}
      />
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
            {sendLabel}
          </Button>
        }
      />
      <TextField
        control={form.control}
        name="password"
        label={t('register.password')}
        placeholder={t('register.passwordPlaceholder')}
        type="password"
        autoComplete="new-password"
        maxLength={10}
      />
      <TextField
        control={form.control}
        name="password_confirm"
        label={t('register.passwordConfirm')}
        placeholder={t('register.passwordConfirmPlaceholder')}
        type="password"
        autoComplete="new-password"
        maxLength={10}
      />
      <TextField
        control={form.control}
        name="invite_code"
        label={t('register.inviteCode')}
        placeholder={t('register.inviteCodePlaceholder')}
        autoComplete="off"
        maxLength={32}
      />
      <Button block color="primary" size="large" type="submit" loading={register.isPending}>
        {t('register.submit')}
      </Button>
      <p className="form-page__switch">
        {t('register.haveAccount')} <Link to={PAGE_PATHS.login}>{t('register.toLogin')}</Link>
      </p>
    </form>
  );
}
