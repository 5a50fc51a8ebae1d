import {
  EXPERIENCE_PRODUCTS,
  ZMyNumberReveal,
  ZMyNumberRevealed,
  prefectureName,
  type TApplicationView,
} from '@kabuto/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@/shared/client';
import { checkForm } from '@/shared/forms';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';

/**
 * The account application's answers (issue 23) for the reviewer: every field, the My Number masked. Seeing
 * it in full takes a written reason; each look is audited (identity.my_number_viewed) by the server.
 */
export function ApplicationDetail({ id, application }: { id: number; application: TApplicationView }) {
  const { t, locale } = useLocale();
  const p = application.profile;
  const label = (section: string, value: string | null | undefined) =>
    value === null || value === undefined ? t('common.none') : tContract(`opening.${section}.${value}`);
  const yesNo = (value: boolean | null | undefined) =>
    value === null || value === undefined ? t('common.none') : value ? t('opening.yes') : t('opening.no');
  return (
    <Descriptions bordered column={1} size="small" style={{ marginTop: 16 }} title={t('opening.title')}>
      <Descriptions.Item label={t('opening.kana')}>{application.full_name_kana}</Descriptions.Item>
      <Descriptions.Item label={t('opening.birthDate')}>{application.birth_date}</Descriptions.Item>
      {p !== null && (
        <>
          <Descriptions.Item label={t('opening.address')}>
            〒{p.postal_code.slice(0, 3)}-{p.postal_code.slice(3)} {prefectureName(p.prefecture, locale)}{' '}
            {p.city} {p.address_line} {p.building}
          </Descriptions.Item>
          <Descriptions.Item label={t('opening.occupation')}>
            {label('occupations', p.occupation)}
          </Descriptions.Item>
          <Descriptions.Item label={t('opening.employerType')}>
            {label('employerTypes', p.employer_type)}
          </Descriptions.Item>
          <Descriptions.Item label={t('opening.annualIncome')}>
            {label('income', p.annual_income)}
          </Descriptions.Item>
          <Descriptions.Item label={t('opening.financialAssets')}>
            {label('assets', p.financial_assets)}
          </Descriptions.Item>
          {EXPERIENCE_PRODUCTS.map((product) => (
            <Descriptions.Item
              key={product}
              label={`${t('opening.experience')}: ${tContract(`opening.products.${product}`)}`}
            >
              {label('experience', p.experience[product])}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('opening.purpose')}>{label('purposes', p.purpose)}</Descriptions.Item>
          <Descriptions.Item label={t('opening.fundSource')}>
            {label('fundSources', p.fund_source)}
          </Descriptions.Item>
          <Descriptions.Item label={t('opening.pep')}>{yesNo(p.pep)}</Descriptions.Item>
          <Descriptions.Item label={t('opening.taxResidence')}>
            {label('taxResidence', p.tax_residence)} {p.tax_country}
          </Descriptions.Item>
        </>
      )}
      <Descriptions.Item label={t('opening.documentType')}>
        {label('documentTypes', application.document_type)}
      </Descriptions.Item>
      <Descriptions.Item label={t('opening.myNumber')}>
        <MyNumber id={id} masked={application.my_number_masked} />
      </Descriptions.Item>
      <Descriptions.Item label={t('opening.specificAccount')}>
        {label('specificAccount', application.specific_account)}
      </Descriptions.Item>
      <Descriptions.Item label={t('opening.openNisa')}>{yesNo(application.open_nisa)}</Descriptions.Item>
    </Descriptions>
  );
}

function MyNumber({ id, masked }: { id: number; masked: string | null }) {
  const { t } = useLocale();
  const [asking, setAsking] = useState(false);
  const [form] = Form.useForm<{ reason?: string }>();
  const reveal = useMutation({
    mutationFn: (reason: string) =>
      api.request({
        path: `/identity/${id}/my-number`,
        body: { reason },
        schema: ZMyNumberRevealed,
        notify: false,
      }),
    onSuccess: () => {
      setAsking(false);
      form.resetFields();
    },
  });
  if (masked === null) return <>{t('common.none')}</>;
  return (
    <>
      <Typography.Text code data-testid="my-number">
        {reveal.data?.my_number ?? masked}
      </Typography.Text>{' '}
      {reveal.data === undefined && (
        <Button
          size="small"
          onClick={() => {
            setAsking(true);
          }}
        >
          {t('opening.reveal')}
        </Button>
      )}
      <Modal
        open={asking}
        title={t('opening.revealTitle')}
        okText={t('opening.reveal')}
        cancelText={t('common.cancel')}
        confirmLoading={reveal.isPending}
        onOk={() => {
          const body = checkForm(
            form,
            ZMyNumberReveal,
            { reason: form.getFieldsValue().reason ?? '' },
            { reason: t('opening.revealReason') },
          );
          if (body !== null) reveal.mutate(body.reason);
        }}
        onCancel={() => {
          setAsking(false);
        }}
        destroyOnHidden
      >
        {reveal.isError && (
          <Alert
            role="alert"
            type="error"
            showIcon
            message={reveal.error.message}
            style={{ marginBottom: 16 }}
          />
        )}
        <Typography.Paragraph>{t('opening.revealNote')}</Typography.Paragraph>
        <Form form={form} name={`reveal-${id}`} layout="vertical" requiredMark={false}>
          <Form.Item label={t('opening.revealReason')} name="reason">
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
