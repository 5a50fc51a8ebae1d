import type { ReactNode } from 'react';

/** One labelled figure of a trade card: [id (for the test id), label, value]. */
export type TradeCardRow = readonly [id: string, label: string, value: string];

/** The head of a trade card: the stock's name and code, then its tags. */
export function TradeCardHead({ name, code, tags }: { name: string; code: string; tags: ReactNode }) {
  return (
    <div className="trade-card__head">
      <div>
        <span className="trade-card__name">{name}</span> <span className="trade-card__code">{code}</span>
      </div>
      <div className="trade-card__tags">{tags}</div>
    </div>
  );
}

/** The figures of a trade card as a description list; each value has the test id `${testIdPrefix}-${id}`. */
export function TradeCardGrid({
  rows,
  testIdPrefix,
}: {
  rows: readonly TradeCardRow[];
  testIdPrefix: string;
}) {
  return (
    <dl className="trade-card__grid">
      {rows.map(([id, label, value]) => (
        <div key={id} className="trade-card__item">
          <dt>{label}</dt>
          <dd data-testid={`${testIdPrefix}-${id}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
