import { WEIGHT_TOTAL_BP } from '@kabuto/contract';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography, type FormInstance } from 'antd';
import { tContract } from '@/shared/i18n';
import { useLocale } from '@/shared/locale';
import { StockSelect, type StockOption } from '@/shared/stock-select';
import { percentInputOf, portfolioProblem, totalBp, weightBpOf, type ConstituentRow } from './portfolio';

const PROBLEM_KEYS = {
  weightsSum: 'validation.productWeightsSum',
  duplicate: 'validation.productConstituentsUnique',
  empty: 'validation.productConstituents',
} as const;

/**
 * The constituents of a portfolio: stocks of the universe with their target weights in percent, the running
 * total under them, and a form that refuses to submit unless the weights sum to exactly 100% (the server
 * checks it again).
 */
export function ConstituentsField({
  form,
  known = [],
}: {
  form: FormInstance;
  known?: readonly StockOption[];
}) {
  const { t } = useLocale();
  const rows = Form.useWatch<ConstituentRow[] | undefined>('constituents', form);
  const total = totalBp(rows);
  const complete = total === WEIGHT_TOTAL_BP;
  return (
    <Form.List
      name="constituents"
      rules={[
        {
          validator: async (_, value: ConstituentRow[] | undefined) => {
            const problem = portfolioProblem(value);
            if (problem !== null) throw new Error(tContract(PROBLEM_KEYS[problem]));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
          <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('products.constituents')}</legend>
          {fields.map((field, index) => (
            <Space key={field.key} align="baseline" wrap>
              <Form.Item
                name={[field.name, 'code']}
                rules={[{ required: true, message: tContract('validation.productCode') }]}
              >
                <StockSelect aria-label={t('products.stockN', { n: index + 1 })} known={known} />
              </Form.Item>
              <Form.Item
                name={[field.name, 'weight']}
                rules={[
                  {
                    validator: async (_, value: string | undefined) => {
                      const bp = weightBpOf(value);
                      if (bp === null || bp < 1 || bp > WEIGHT_TOTAL_BP) {
                        throw new Error(t('products.weightFormat'));
                      }
                    },
                  },
                ]}
              >
                <Input
                  aria-label={t('products.weightN', { n: index + 1 })}
                  inputMode="decimal"
                  suffix="%"
                  style={{ width: 130 }}
                />
              </Form.Item>
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('products.removeStock', { n: index + 1 })}
                onClick={() => {
                  remove(field.name);
                }}
              />
            </Space>
          ))}
          <Space direction="vertical">
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                add({ code: null, weight: '' });
              }}
            >
              {t('products.addStock')}
            </Button>
            <Typography.Text type={complete ? 'success' : 'danger'} role="status" data-testid="weights-total">
              {t('products.weightsTotal', { total: percentInputOf(total, 2) })}
            </Typography.Text>
            <Form.ErrorList errors={errors} />
          </Space>
        </fieldset>
      )}
    </Form.List>
  );
}
