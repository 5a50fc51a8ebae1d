import { zodResolver } from '@hookform/resolvers/zod';
import {
  ASSET_BANDS,
  DOCUMENT_TYPES,
  EMPLOYER_TYPES,
  EXPERIENCE_BANDS,
  EXPERIENCE_PRODUCTS,
  FUND_SOURCES,
  INCOME_BANDS,
  INVESTMENT_PURPOSES,
  OCCUPATIONS,
  PREFECTURES,
  SPECIFIC_ACCOUNT_CHOICES,
  prefectureName,
  type TIdentityApplication,
} from '@kabuto/contract';
import { isApiError } from '@kabuto/client/api-error';
import { applyServerIssues } from '@kabuto/client/server-issues';
import { Button, ProgressBar } from 'antd-mobile';
import { useId, useState } from 'react';
import { useController, useForm, useWatch, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { tContract } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/use-locale';
import { useSession } from '@/shared/session/session';
import { FieldError } from '@/shared/ui/field-error';
import { TextField } from '@/shared/ui/text-field';
import { showSuccess } from '@/shared/ui/overlays';
import {
  identityFormSchema,
  useSubmitIdentity,
  type IdentityFormInput,
  type IdentityFormOutput,
} from '../api/identity';
import { PhotoUpload } from './photo-upload';

/**
 * The account application (口座開設, issue 23) as seven steps: name, address, profile and experience,
 * declarations, My Number and the document, tax accounts, then a review of every answer. One form over the
 * whole contract schema: each step checks its own fields before the next; the server's per-field errors land
 * on their fields and the form returns to the step that holds the first of them.
 */
type Field = FieldPath<IdentityFormInput>;
type FormControl = Control<IdentityFormInput, unknown, IdentityFormOutput>;

const STEPS = ['identity', 'address', 'profile', 'declarations', 'documents', 'tax', 'review'] as const;
type Step = (typeof STEPS)[number];

const STEP_FIELDS: Record<Step, Field[]> = {
  identity: ['full_name', 'full_name_kana', 'birth_date'],
  address: [
    'profile.postal_code',
    'profile.prefecture',
    'profile.city',
    'profile.address_line',
    'profile.building',
  ],
  profile: [
    'profile.occupation',
    'profile.employer_type',
    'profile.annual_income',
    'profile.financial_assets',
    ...EXPERIENCE_PRODUCTS.map((p) => `profile.experience.${p}` as const),
    'profile.purpose',
    'profile.fund_source',
  ],
  declarations: ['profile.pep', 'profile.tax_residence', 'profile.tax_country'],
  documents: ['my_number', 'document_type', 'front_upload_id', 'back_upload_id'],
  tax: ['specific_account', 'open_nisa'],
  review: [],
};
const ALL_FIELDS = STEPS.flatMap((s) => STEP_FIELDS[s]);

export function ApplicationForm({ identity }: { identity: TIdentityApplication }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.userId);
  const mutation = useSubmitIdentity(userId);
  const [step, setStep] = useState(0);
  const form = useForm<IdentityFormInput, unknown, IdentityFormOutput>({
    resolver: zodResolver(identityFormSchema),
    defaultValues: {
      full_name: identity.full_name ?? '',
      full_name_kana: identity.application?.full_name_kana ?? '',
      birth_date: identity.application?.birth_date ?? '',
      profile: { building: '', tax_country: '', experience: {} },
      my_number: '',
      front_upload_id: '',
      back_upload_id: '',
    } as IdentityFormInput,
    shouldFocusError: true,
  });
  const current = STEPS[step] ?? 'identity';
  const goTo = (next: number) => {
    setStep(next);
    window.scrollTo({ top: 0 });
  };
  const stepOfFirstError = () => {
    const { errors } = form.formState;
    const has = (field: Field) => form.getFieldState(field).invalid || field in errors;
    const index = STEPS.findIndex((s) => STEP_FIELDS[s].some(has));
    return index === -1 ? step : index;
  };
  const next = async () => {
    if (await form.trigger(STEP_FIELDS[current])) goTo(step + 1);
  };
  const onSubmit = form.handleSubmit(
    (values) => {
      mutation.mutate(values, {
        onSuccess: () => {
          showSuccess(t('realName.submitted'));
          window.scrollTo({ top: 0 });
        },
        onError: (error) => {
          applyServerIssues(error, ALL_FIELDS, form.setError);
          if (isApiError(error) && error.code === 1315) {
            form.setError('birth_date', { type: 'server', message: error.msg });
          }
          goTo(stepOfFirstError());
        },
      });
    },
    () => {
      goTo(stepOfFirstError());
    },
  );
  const c = form.control;
  return (
    <form
      className="form-page application-form"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={t('opening.title')}
      data-step={current}
    >
      {identity.status === 'rejected' && <h2 className="funds-heading">{t('realName.resubmitTitle')}</h2>}
      {step === 0 && <p className="form-page__intro">{t('opening.intro')}</p>}
      <p className="application-form__progress">
        {t('opening.stepOf', { step: step + 1, total: STEPS.length })}
      </p>
      <ProgressBar percent={((step + 1) / STEPS.length) * 100} />
      <h2 className="funds-heading">{t(`opening.steps.${current}`)}</h2>
      {current === 'identity' && (
        <>
          <TextField
            control={c}
            name="full_name"
            label={t('opening.fullName')}
            placeholder={t('opening.fullNamePlaceholder')}
            autoComplete="name"
            maxLength={60}
          />
          <TextField
            control={c}
            name="full_name_kana"
            label={t('opening.kana')}
            placeholder={t('opening.kanaPlaceholder')}
            maxLength={60}
          />
          <p className="funds-note">{t('opening.kanaHint')}</p>
          <TextField
            control={c}
            name="birth_date"
            label={t('opening.birthDate')}
            placeholder={t('opening.birthDatePlaceholder')}
            autoComplete="bday"
            inputMode="numeric"
            maxLength={10}
          />
        </>
      )}
      {current === 'address' && <AddressStep control={c} />}
      {current === 'profile' && <ProfileStep control={c} />}
      {current === 'declarations' && <DeclarationsStep control={c} />}
      {current === 'documents' && <DocumentsStep control={c} />}
      {current === 'tax' && (
        <>
          <SelectField
            control={c}
            name="specific_account"
            label={t('opening.specificAccount')}
            options={SPECIFIC_ACCOUNT_CHOICES.map((v) => ({
              value: v,
              label: tContract(`opening.specificAccount.${v}`),
            }))}
          />
          <p className="funds-note">{t('opening.specificAccountNote')}</p>
          <YesNoField control={c} name="open_nisa" label={t('opening.openNisa')} />
          <p className="funds-note">{t('opening.openNisaNote')}</p>
        </>
      )}
      {current === 'review' && <Review values={form.getValues()} onEdit={goTo} />}
      <div className="application-form__nav">
        {step > 0 && (
          <Button
            block
            fill="outline"
            color="primary"
            onClick={() => {
              goTo(step - 1);
            }}
          >
            {t('opening.back')}
          </Button>
        )}
        {current === 'review' ? (
          <Button key="submit" block color="primary" size="large" type="submit" loading={mutation.isPending}>
            {identity.status === 'rejected' ? t('realName.resubmit') : t('opening.submit')}
          </Button>
        ) : (
          <Button key="next" block color="primary" onClick={() => void next()}>
            {t('opening.next')}
          </Button>
        )}
      </div>
    </form>
  );
}

function AddressStep({ control }: { control: FormControl }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <>
      <TextField
        control={control}
        name="profile.postal_code"
        label={t('opening.postalCode')}
        placeholder={t('opening.postalCodePlaceholder')}
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={8}
      />
      <SelectField
        control={control}
        name="profile.prefecture"
        label={t('opening.prefecture')}
        options={PREFECTURES.map(([code]) => ({ value: code, label: prefectureName(code, locale) }))}
      />
      <TextField
        control={control}
        name="profile.city"
        label={t('opening.city')}
        placeholder={t('opening.cityPlaceholder')}
        autoComplete="address-level2"
        maxLength={60}
      />
      <TextField
        control={control}
        name="profile.address_line"
        label={t('opening.addressLine')}
        placeholder={t('opening.addressLinePlaceholder')}
        autoComplete="address-line1"
        maxLength={100}
      />
      <TextField
        control={control}
        name="profile.building"
        label={t('opening.building')}
        autoComplete="address-line2"
        maxLength={100}
      />
    </>
  );
}

const options = (values: readonly string[], section: string) =>
  values.map((v) => ({ value: v, label: tContract(`opening.${section}.${v}`) }));

function ProfileStep({ control }: { control: FormControl }) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        control={control}
        name="profile.occupation"
        label={t('opening.occupation')}
        options={options(OCCUPATIONS, 'occupations')}
      />
      <SelectField
        control={control}
        name="profile.employer_type"
        label={t('opening.employerType')}
        options={options(EMPLOYER_TYPES, 'employerTypes')}
      />
      <SelectField
        control={control}
        name="profile.annual_income"
        label={t('opening.annualIncome')}
        options={options(INCOME_BANDS, 'income')}
      />
      <SelectField
        control={control}
        name="profile.financial_assets"
        label={t('opening.financialAssets')}
        options={options(ASSET_BANDS, 'assets')}
      />
      <p className="funds-note">{t('opening.financialAssetsHint')}</p>
      <fieldset className="application-form__group">
        <legend>{t('opening.experience')}</legend>
        {EXPERIENCE_PRODUCTS.map((product) => (
          <SelectField
            key={product}
            control={control}
            name={`profile.experience.${product}`}
            label={tContract(`opening.products.${product}`)}
            options={options(EXPERIENCE_BANDS, 'experience')}
          />
        ))}
      </fieldset>
      <SelectField
        control={control}
        name="profile.purpose"
        label={t('opening.purpose')}
        options={options(INVESTMENT_PURPOSES, 'purposes')}
      />
      <SelectField
        control={control}
        name="profile.fund_source"
        label={t('opening.fundSource')}
        options={options(FUND_SOURCES, 'fundSources')}
      />
    </>
  );
}

function DeclarationsStep({ control }: { control: FormControl }) {
  const { t } = useTranslation();
  const residence = useController({ control, name: 'profile.tax_residence' }).field.value;
  return (
    <>
      <YesNoField control={control} name="profile.pep" label={t('opening.pep')} />
      <SelectField
        control={control}
        name="profile.tax_residence"
        label={t('opening.taxResidence')}
        options={options(['japan_only', 'other'], 'taxResidence')}
      />
      {residence === 'other' && (
        <TextField
          control={control}
          name="profile.tax_country"
          label={t('opening.taxCountry')}
          placeholder={t('opening.taxCountryPlaceholder')}
          maxLength={2}
        />
      )}
    </>
  );
}

function DocumentsStep({ control }: { control: FormControl }) {
  const { t } = useTranslation();
  const documentType = useWatch({ control, name: 'document_type' });
  return (
    <>
      <TextField
        control={control}
        name="my_number"
        label={t('opening.myNumber')}
        placeholder={t('opening.myNumberPlaceholder')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={14}
      />
      <p className="funds-note">{t('opening.myNumberNote')}</p>
      <SelectField
        control={control}
        name="document_type"
        label={t('opening.documentType')}
        options={options(DOCUMENT_TYPES, 'documentTypes')}
      />
      <PhotoField
        control={control}
        name="front_upload_id"
        label={t('opening.frontPhoto')}
        purpose="identity_front"
      />
      <PhotoField
        control={control}
        name="back_upload_id"
        label={documentType === 'passport' ? t('opening.backPassport') : t('opening.backPhoto')}
        purpose="identity_back"
      />
      <p className="funds-note">{t('realName.photoNote')}</p>
    </>
  );
}

/** Every answer, labelled, with a way back to its step. */
function Review({ values, onEdit }: { values: IdentityFormInput; onEdit: (step: number) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  // The answers as they will be stored: the reading in full-width katakana, the postal code without hyphen.
  const normal = identityFormSchema.safeParse(values);
  const kana = normal.success ? normal.data.full_name_kana : values.full_name_kana;
  const p = values.profile;
  const postal = normal.success ? normal.data.profile.postal_code : p.postal_code;
  const label = (section: string, v: string | undefined) =>
    v === undefined ? '—' : tContract(`opening.${section}.${v}`);
  const yesNo = (v: boolean | undefined) => (v === undefined ? '—' : v ? t('opening.yes') : t('opening.no'));
  const rows: [Step, string, string][] = [
    ['identity', t('opening.fullName'), values.full_name],
    ['identity', t('opening.kana'), kana],
    ['identity', t('opening.birthDate'), values.birth_date],
    ['address', t('opening.postalCode'), postal],
    ['address', t('opening.prefecture'), prefectureName(p.prefecture, locale)],
    ['address', t('opening.city'), `${p.city} ${p.address_line} ${p.building ?? ''}`.trim()],
    ['profile', t('opening.occupation'), label('occupations', p.occupation)],
    ['profile', t('opening.employerType'), label('employerTypes', p.employer_type)],
    ['profile', t('opening.annualIncome'), label('income', p.annual_income)],
    ['profile', t('opening.financialAssets'), label('assets', p.financial_assets)],
    ...EXPERIENCE_PRODUCTS.map((product): [Step, string, string] => [
      'profile',
      tContract(`opening.products.${product}`),
      label('experience', p.experience[product]),
    ]),
    ['profile', t('opening.purpose'), label('purposes', p.purpose)],
    ['profile', t('opening.fundSource'), label('fundSources', p.fund_source)],
    ['declarations', t('opening.pep'), yesNo(p.pep)],
    [
      'declarations',
      t('opening.taxResidence'),
      `${label('taxResidence', p.tax_residence)} ${p.tax_country ?? ''}`.trim(),
    ],
    ['documents', t('opening.myNumber'), `••••••••${values.my_number.replace(/\D/g, '').slice(-4)}`],
    ['documents', t('opening.documentType'), label('documentTypes', values.document_type)],
    ['tax', t('opening.specificAccount'), label('specificAccount', values.specific_account)],
    ['tax', t('opening.openNisa'), yesNo(values.open_nisa)],
  ];
  return (
    <>
      <p className="form-page__intro">{t('opening.reviewIntro')}</p>
      <dl className="funds-details application-review" data-testid="application-review">
        {rows.map(([step, term, value]) => (
          <div key={`${step}-${term}`}>
            <dt>{term}</dt>
            <dd>
              {value}{' '}
              <button
                type="button"
                className="application-review__edit"
                onClick={() => {
                  onEdit(STEPS.indexOf(step));
                }}
              >
                {t('opening.edit')}
              </button>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

interface Option {
  value: string;
  label: string;
}

/** A labelled native select (the phone's own picker) bound to the form; its error under it. */
function SelectField({
  control,
  name,
  label,
  options: choices,
}: {
  control: FormControl;
  name: Field;
  label: string;
  options: Option[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  const value: unknown = field.value;
  return (
    <div className={`text-field${message === undefined ? '' : ' text-field--invalid'}`}>
      <label className="text-field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="select-field"
        name={field.name}
        ref={(element) => {
          field.ref(element);
        }}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => {
          field.onChange(e.target.value === '' ? undefined : e.target.value);
        }}
        onBlur={field.onBlur}
        aria-invalid={message !== undefined}
        aria-describedby={message === undefined ? undefined : `${id}-error`}
      >
        <option value="">{t('opening.choose')}</option>
        {choices.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

/** Yes or no as two radio buttons in a labelled group. */
function YesNoField({ control, name, label }: { control: FormControl; name: Field; label: string }) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const message = fieldState.error?.message;
  return (
    <fieldset
      className={`text-field yes-no${message === undefined ? '' : ' text-field--invalid'}`}
      aria-describedby={message === undefined ? undefined : `${id}-error`}
    >
      <legend className="text-field__label">{label}</legend>
      {([true, false] as const).map((v) => (
        <label key={String(v)} className="yes-no__option">
          <input
            type="radio"
            name={field.name}
            checked={field.value === v}
            onChange={() => {
              field.onChange(v);
            }}
          />
          {v ? t('opening.yes') : t('opening.no')}
        </label>
      ))}
      <FieldError id={`${id}-error`} message={message} />
    </fieldset>
  );
}

function PhotoField({
  control,
  name,
  label,
  purpose,
}: {
  control: FormControl;
  name: 'front_upload_id' | 'back_upload_id';
  label: string;
  purpose: 'identity_front' | 'identity_back';
}) {
  const { field, fieldState } = useController({ control, name });
  return (
    <PhotoUpload
      label={label}
      purpose={purpose}
      value={field.value ?? ''}
      onChange={(id) => {
        field.onChange(id);
      }}
      error={fieldState.error?.message}
      testId={`photo-${purpose}`}
    />
  );
}
