import {
  LOT_SIZE,
  sen,
  type TClosePositionRequest,
  type TPosition,
  isValidTick,
  tickDown,
  tickSize,
  tickUp,
} from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/shared/format/format';
import { formatPriceAuto, formatShares } from '@/shared/format/price';
import { tContract } from '@/shared/i18n/i18n';
import { stockQuery } from '@/domains/market/market-api';
import { useViewer } from '@/domains/market/viewer';
import { inputToPrice, inputToQuantity, priceToInput } from '@/domains/trading/price-input';
import { Segmented, StepperField } from '@/shared/ui/segmented';
import { useClosePosition } from '../hooks/use-trading-actions';
import { accountLabel, priceTypeLabel, tradeLabel, tradeTypeLabel } from '../labels';
import { useLocale } from '@/shared/i18n/use-locale';
import { dialog } from '@/shared/ui/overlays';

/** 決済: closes all or part of a position at market or at a limit, after a confirm prompt. */
export function ClosePositionSheet({ position, onDone }: { position: TPosition | null; onDone: () => void }) {
  return (
    <Popup
      visible={position !== null}
      onMaskClick={onDone}
      onClose={onDone}
      destroyOnClose
      bodyClassName="close-sheet"
    >
      {position !== null && <CloseForm key={position.id} position={position} onDone={onDone} />}
    </Popup>
  );
}

function CloseForm({ position, onDone }: { position: TPosition; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const viewer = useViewer();
  const stock = useQuery(stockQuery(viewer, position.code)).data;
  const quote = stock?.quote ?? null;
  const topix500 = stock?.topix500 ?? false;
  const available = position.quantity - position.closing_quantity;
  const [quantityText, setQuantityText] = useState(String(available));
  const [priceType, setPriceType] = useState<'market' | 'limit'>('market');
  const [priceText, setPriceText] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const { close } = useClosePosition();

  const quantity = inputToQuantity(quantityText);
  const limitPrice = priceType === 'limit' ? inputToPrice(priceText) : null;
  const quantityError =
    quantity === null
      ? tContract('validation.quantityRequired')
      : quantity % LOT_SIZE !== 0
        ? tContract('validation.quantityLot')
        : quantity > available
          ? t('orders.closeTooMany', { available: formatShares(available, locale) })
          : null;
  const priceError = (() => {
    if (priceType !== 'limit') return null;
    if (limitPrice === null) return tContract('validation.priceRequired');
    if (!isValidTick(limitPrice, topix500)) {
      return tContract('errors.PRICE_OFF_TICK', {
        tick: formatPriceAuto(tickSize(Math.max(1, limitPrice), topix500), locale),
      });
    }
    if (
      quote !== null &&
      quote.limit_down > 0 &&
      (limitPrice < quote.limit_down || limitPrice > quote.limit_up)
    ) {
      return tContract('errors.PRICE_OUTSIDE_LIMITS', {
        lower: formatPriceAuto(quote.limit_down, locale),
        upper: formatPriceAuto(quote.limit_up, locale),
      });
    }
    return null;
  })();
  // Closing a long sells at the bid; closing a short buys back at the ask.
  const marketPrice =
    quote === null
      ? position.last_price
      : position.direction === 'long'
        ? quote.bid || quote.last
        : quote.ask || quote.last;
  const estimate = (limitPrice ?? marketPrice) * (quantity ?? 0);

  /** 現物売 for a cash holding; 返済売 / 返済買 for a margin position (建玉). */
  const trade = tradeLabel(t, { ...position, kind: 'close' });

  async function submit() {
    setShowErrors(true);
    if (quantityError !== null || priceError !== null || quantity === null) return;
    const body: TClosePositionRequest = {
      position_id: position.id,
      price_type: priceType,
      ...(limitPrice !== null ? { price: limitPrice } : {}),
      quantity,
    };
    const ok = await dialog.confirm({
      title: t('orders.closeConfirmTitle'),
      content: (
        <dl className="confirm-list" data-testid="close-confirm">
          {(
            [
              [t('trading.stock'), `${position.name} (${position.code})`],
              [t('trading.direction'), trade],
              [t('trading.leverage'), tradeTypeLabel(t, position)],
              [t('ticket.accountLabel'), accountLabel(t, position.account)],
              [t('trading.priceType'), priceTypeLabel(t, priceType)],
              [
                t('trading.price'),
                limitPrice === null
                  ? t('trading.marketPriceEstimate', { price: formatPriceAuto(marketPrice, locale) })
                  : formatPriceAuto(limitPrice, locale),
              ],
              [t('trading.quantity'), formatShares(quantity, locale)],
              [t('orders.closeEstimate'), formatMoney(sen(estimate), locale)],
            ] as const
          ).map(([k, v]) => (
            <div key={k} className="confirm-list__row">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      ),
      confirmText: t('orders.closeSubmit'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      const order = await close(body);
      if (order !== null) onDone();
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="close-form"
      aria-label={trade}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="close-form__title">
        {trade}: {position.name} ({position.code})
      </h2>
      <p className="order-form__note">
        {t('orders.closeAvailable', { available: formatShares(available, locale) })}
      </p>
      <StepperField
        label={t('orders.closeQuantity')}
        value={quantityText}
        onChange={setQuantityText}
        onStep={(dir) => {
          const current = quantity ?? 0;
          const next = Math.min(
            available,
            Math.max(LOT_SIZE, Math.floor(current / LOT_SIZE) * LOT_SIZE + dir * LOT_SIZE),
          );
          setQuantityText(String(next));
        }}
        decLabel={t('trading.quantityDown')}
        incLabel={t('trading.quantityUp')}
        suffix={t('trading.sharesUnit')}
        error={showErrors || quantityText !== '' ? quantityError : null}
        testId="close-quantity"
      />
      <Segmented
        label={t('trading.priceType')}
        value={priceType}
        onChange={(next) => {
          setPriceType(next);
          if (next === 'limit' && priceText === '')
            setPriceText(priceToInput(quote?.last ?? position.last_price));
        }}
        options={[
          { value: 'market', label: t('trading.market') },
          { value: 'limit', label: t('trading.limit') },
        ]}
        testId="close-price-type"
      />
      {priceType === 'limit' && (
        <StepperField
          label={t('trading.limitPrice')}
          value={priceText}
          onChange={setPriceText}
          onStep={(dir) => {
            const current = inputToPrice(priceText) ?? position.last_price;
            setPriceText(
              priceToInput(
                dir === 1 ? tickUp(Math.max(1, current), topix500) : tickDown(Math.max(1, current), topix500),
              ),
            );
          }}
          inputMode="decimal"
          decLabel={t('trading.priceDown')}
          incLabel={t('trading.priceUp')}
          suffix={t('trading.yen')}
          error={showErrors || priceText !== '' ? priceError : null}
          testId="close-price"
        />
      )}
      <dl className="order-figures">
        <div className="order-figures__item order-figures__item--strong">
          <dt>{t('orders.closeEstimate')}</dt>
          <dd>{formatMoney(sen(estimate), locale)}</dd>
        </div>
      </dl>
      <div className="close-form__actions">
        <Button block onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button block type="submit" color="primary" loading={busy} disabled={busy}>
          {t('orders.closeSubmit')}
        </Button>
      </div>
    </form>
  );
}
