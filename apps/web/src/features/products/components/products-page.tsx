import { type Locale, type TProduct, type TProductDetail } from '@kabuto/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Input } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '@/shared/navigation/router';
import { formatDate, formatMoney } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { navigateTo } from '@/shared/navigation/nav';
import { PAGE_PATHS } from '@/shared/navigation/routes';
import { useSession } from '@/shared/session/session';
import { EmptyState } from '@/shared/ui/empty-state';
import { PageLoading } from '@/shared/ui/page-loading';
import { showSuccess } from '@/shared/ui/overlays';
import { buyProduct, productKeys, productListQuery, productQuery } from '../api/products';
import '../products.css';
import { NavChart } from './nav-chart';

/** Annual fee in parts per million as a percentage with up to four decimals (0.143%). */
const feeText = (ppm: number, locale: Locale) =>
  `${new Intl.NumberFormat(locale, { maximumFractionDigits: 4 }).format(ppm / 10_000)}%`;

/**
 * /subPackages/index/gendan/gendan: the follow-up products (published model-portfolio funds), and with
 * `?id=` one product: its NAV chart, portfolio, fee, risk disclosure and the purchase form (ADR 0027).
 */
export function ProductsPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? <ProductDetail id={id} /> : <ProductList />;
}

function ProductList() {
  const { t } = useTranslation();
  const locale = useLocale();
  const userId = useSession((s) => s.userId);
  const list = useQuery(productListQuery(userId));
  if (list.isPending) return <PageLoading />;
  const items = list.data?.items ?? [];
  return (
    <div className="products-page">
      <p className="products-muted">{t('products.intro')}</p>
      <Button
        size="small"
        fill="outline"
        onClick={() => {
          navigateTo(PAGE_PATHS.followRecords);
        }}
      >
        {t('products.records')}
      </Button>
      {items.length === 0 ? (
        <EmptyState description={t('products.none')} />
      ) : (
        <ul className="products-list">
          {items.map((p) => (
            <ProductCard key={p.id} product={p} locale={locale} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ProductCard({ product, locale }: { product: TProduct; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <li className="products-card" data-testid="product-card">
      <button
        type="button"
        className="products-card__button"
        onClick={() => {
          navigateTo(`${PAGE_PATHS.followProducts}?id=${product.id}`);
        }}
      >
        <span className="products-card__issuer">{product.issuer}</span>
        <strong className="products-card__name">{product.name}</strong>
        <dl className="products-facts">
          <Fact label={t('products.nav')} value={formatMoney(product.nav, locale)} />
          <Fact label={t('products.fundSize')} value={formatMoney(product.fund_size, locale)} />
          <Fact label={t('products.deadline')} value={formatDate(product.deadline, locale)} />
          <Fact label={t('products.minInvestment')} value={formatMoney(product.min_investment, locale)} />
          <Fact label={t('products.status')} value={t(`products.statuses.${product.status}`)} />
        </dl>
      </button>
    </li>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="products-fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function ProductDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const userId = useSession((s) => s.userId);
  const product = useQuery(productQuery(id, userId));
  if (product.isPending) return <PageLoading />;
  const p = product.data;
  if (!p) return <EmptyState description={t('products.none')} />;
  return (
    <div className="products-page">
      <section className="products-card" aria-labelledby="product-title">
        <span className="products-card__issuer">{p.issuer}</span>
        <h2 id="product-title" className="products-card__name">
          {p.name}
        </h2>
        <dl className="products-facts">
          <Fact
            label={t('products.navOf', { date: formatDate(p.nav_date, locale) })}
            value={formatMoney(p.nav, locale)}
          />
          <Fact label={t('products.fee')} value={feeText(p.management_rate_ppm, locale)} />
          <Fact
            label={t('products.fundSize')}
            value={`${formatMoney(p.fund_size, locale)} / ${formatMoney(p.fund_cap, locale)}`}
          />
          <Fact label={t('products.deadline')} value={formatDate(p.deadline, locale)} />
          <Fact label={t('products.minInvestment')} value={formatMoney(p.min_investment, locale)} />
        </dl>
        <p className="products-muted">{t('products.navRule')}</p>
      </section>
      <section className="products-card" aria-labelledby="product-chart-title">
        <h3 id="product-chart-title">{t('products.chartTitle')}</h3>
        <NavChart history={p.history} locale={locale} />
      </section>
      <section className="products-card" aria-labelledby="product-strategy-title">
        <h3 id="product-strategy-title">{t('products.strategy')}</h3>
        <p>{p.strategy}</p>
        <table className="products-table">
          <caption>{t('products.constituents')}</caption>
          <tbody>
            {p.constituents.map((c) => (
              <tr key={c.code}>
                <th scope="row">
                  {c.code} {c.name}
                </th>
                <td>{`${(c.weight_bp / 100).toFixed(2)}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <BuyForm product={p} locale={locale} />
    </div>
  );
}

function BuyForm({ product, locale }: { product: TProductDetail; locale: Locale }) {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const client = useQueryClient();
  const amountId = useId();
  const [amount, setAmount] = useState('');
  const [ack, setAck] = useState(false);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const needsAck = !product.risk_acknowledged;
  const decimalsOk = amount === '' || /^\d+(\.\d{0,2})?$/.test(amount);
  if (product.status === 'closed') return <p className="products-muted">{t('products.closed')}</p>;
  return (
    <section className="products-card" aria-labelledby="product-buy-title">
      <h3 id="product-buy-title">{t('products.buyTitle')}</h3>
      <section className="products-risk" aria-labelledby="product-risk-title">
        <h4 id="product-risk-title">{t('products.risk')}</h4>
        <p>{product.risk_disclosure}</p>
        {needsAck && (
          <Checkbox checked={ack} onChange={setAck} data-testid="risk-ack">
            {t('products.acknowledge')}
          </Checkbox>
        )}
      </section>
      <label className="text-field__label" htmlFor={amountId}>
        {t('products.amount')}
      </label>
      <Input
        id={amountId}
        value={amount}
        onChange={setAmount}
        inputMode="decimal"
        placeholder={t('products.amountPlaceholder', { min: formatMoney(product.min_investment, locale) })}
        data-testid="product-amount"
      />
      {!decimalsOk && (
        <p className="field-error" role="alert">
          {t('products.twoDecimals')}
        </p>
      )}
      <p className="products-muted">{t('products.blindPricing')}</p>
      <Button
        block
        color="primary"
        loading={busy}
        disabled={token === null || amount === '' || !decimalsOk || (needsAck && !ack)}
        onClick={() => {
          setBusy(true);
          buyProduct(product.id, amount, ack, key)
            .then((record) => {
              showSuccess(t('products.applied', { date: formatDate(record.buy_nav_date, locale) }), 2500);
              setAmount('');
              setKey(crypto.randomUUID());
              void client.invalidateQueries({ queryKey: productKeys.all });
            })
            .catch(() => {
              // the client has shown the server's message; a new attempt gets a new key
              setKey(crypto.randomUUID());
            })
            .finally(() => {
              setBusy(false);
            });
        }}
        data-testid="product-buy"
      >
        {token === null ? t('products.loginToBuy') : t('products.buy')}
      </Button>
    </section>
  );
}
