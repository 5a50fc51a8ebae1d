import { zodResolver } from '@hookform/resolvers/zod';
import { type TIdentity } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd-mobile';
import { useController, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { formatDateTime } from '@/shared/format/format';
import { switchTab } from '@/shared/navigation/nav';
import { TAB_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { PageLoading } from '@/shared/ui/page-loading';
import { RequireLogin } from '@/shared/ui/require-login';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/toast';
import {
  identityFormSchema,
  identityQuery,
  useSubmitIdentity,
  type IdentityFormInput,
  type IdentityFormOutput,
} from '../api/identity';
import { PhotoUpload } from './photo-upload';
import { useLocale } from '@/shared/i18n/use-locale';

/** /subPackages/real_name/real_name: the verification's state, and the form while it may be filed. */
export function RealNamePage() {
  return (
    <RequireLogin>
      <RealName />
    </RequireLogin>
  );
}

function RealName() {
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.userId);
  const { data: identity } = useQuery(identityQuery(userId, token));
  if (identity === undefined) return <PageLoading />;
  return (
    <div className="funds-page" data-testid="real-name-page" data-status={identity.status}>
      <IdentityState identity={identity} />
      {identity.can_submit && <IdentityForm identity={identity} />}
    </div>
  );
}

function IdentityState({ identity }: { identity: TIdentity }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const details = identity.full_name !== null && (
    <dl className="funds-details">
      <div>
        <dt>{t('realName.fullName')}</dt>
        <dd>{identity.full_name}</dd>
      </div>
      {identity.id_number_masked !== null && (
        <div>
          <dt>{t('realName.idNumber')}</dt>
          <dd>{identity.id_number_masked}</dd>
        </div>
      )}
      {identity.submitted_at !== null && (
        <div>
          <dt>{t('realName.submittedAt')}</dt>
          <dd>{formatDateTime(identity.submitted_at, locale)}</dd>
        </div>
      )}
    </dl>
  );
  switch (identity.status) {
    case 'pending':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="waiting"
            title={<h2 className="funds-state__title">{t('realName.pendingTitle')}</h2>}
            description={t('realName.pendingBody')}
          />
          {details}
        </section>
      );
    case 'passed':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="success"
            title={<h2 className="funds-state__title">{t('realName.passedTitle')}</h2>}
            description={t('realName.passedBody')}
          />
          {details}
          <Button
            block
            color="primary"
            fill="outline"
            onClick={() => {
              switchTab(TAB_PATHS.user);
            }}
          >
            {t('realName.toAccount')}
          </Button>
        </section>
      );
    case 'rejected':
      return (
        <section className="funds-state" data-testid="identity-state">
          <Result
            status="error"
            title={<h2 className="funds-state__title">{t('realName.rejectedTitle')}</h2>}
            description={t('realName.rejectedBody')}
          />
          <p className="funds-reason" data-testid="identity-reason">
            <strong>{t('funds.reason')}:</strong> {identity.reason ?? '—'}
          </p>
        </section>
      );
    case 'unverified':
      return <p className="form-page__intro">{t('realName.intro')}</p>;
  }
}

function IdentityForm({ identity }: { identity: TIdentity }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const mutation = useSubmitIdentity(userId);
  const form = useForm<IdentityFormInput, unknown, IdentityFormOutput>({
    resolver: zodResolver(identityFormSchema),
    defaultValues: {
      full_name: identity.full_name ?? '',
      id_number: '',
      front_upload_id: '',
      back_upload_id: '',
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => {
        showSuccess(t('realName.submitted'));
        window.scrollTo({ top: 0 });
      },
      onError: (error) => {
        applyServerIssues(
          error,
          ['full_name', 'id_number', 'front_upload_id', 'back_upload_id'],
          form.setError,
        );
      },
    });
  });
  return (
    <form
      className="form-page"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={identity.status === 'rejected' ? t('realName.resubmit') : t('realName.submit')}
    >
      {identity.status === 'rejected' && <h2 className="funds-heading">{t('realName.resubmitTitle')}</h2>}
      <TextField
        control={form.control}
        name="full_name"
        label={t('realName.fullName')}
        placeholder={t('realName.fullNamePlaceholder')}
        autoComplete="name"
        maxLength={60}
      />
      <TextField
        control={form.control}
        name="id_number"
        label={t('realName.idNumber')}
        placeholder={t('realName.idNumberPlaceholder')}
        autoComplete="off"
        maxLength={20}
      />
      <PhotoField
        control={form.control}
        name="front_upload_id"
        label={t('realName.front')}
        purpose="identity_front"
      />
      <PhotoField
        control={form.control}
        name="back_upload_id"
        label={t('realName.back')}
        purpose="identity_back"
      />
      <p className="funds-note">{t('realName.photoNote')}</p>
      <Button block color="primary" size="large" type="submit" loading={mutation.isPending}>
        {identity.status === 'rejected' ? t('realName.resubmit') : t('realName.submit')}
      </Button>
    </form>
  );
}

function PhotoField({
  control,
  name,
  label,
  purpose,
}: {
  control: Control<IdentityFormInput, unknown, IdentityFormOutput>;
  name: 'front_upload_id' | 'back_upload_id';
  label: string;
  purpose: 'identity_front' | 'identity_back';
}) {
  const { field, fieldState } = useController({ control, name });
  return (
    <PhotoUpload
      label={label}
      purpose={purpose}
      value={field.value}
      onChange={(id) => {
        field.onChange(id);
      }}
      error={fieldState.error?.message}
      testId={`photo-${purpose}`}
    />
  );
}
