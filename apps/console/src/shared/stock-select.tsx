import { ZSearchResults } from '@kabuto/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { publicApi } from './client';
import { useLocale } from './locale';

export interface StockOption {
  code: string;
  name: string;
}

export interface StockSelectProps {
  value?: string;
  onChange?: (code: string) => void;
  id?: string;
  'aria-label'?: string;
  /** stocks to label before any search (e.g. a product's current constituents) */
  known?: readonly StockOption[];
  'data-testid'?: string;
}

/**
 * A stock of the market universe, searched by code or name through the public market search; only tradable
 * stocks (those the simulator prices) are offered. The server checks the code again.
 */
export function StockSelect({ value, onChange, known = [], ...rest }: StockSelectProps) {
  const { t } = useLocale();
  const [q, setQ] = useState('');
  /** the stocks picked so far, so that a picked stock keeps its name while another search runs */
  const [picked, setPicked] = useState<readonly StockOption[]>([]);
  const search = useQuery({
    queryKey: ['market-search', q],
    enabled: q.trim() !== '',
    placeholderData: keepPreviousData,
    queryFn: () =>
      publicApi.request({
        path: '/market/search',
        query: { q: q.trim(), limit: 20 },
        schema: ZSearchResults,
      }),
  });
  const found = (search.data ?? []).filter((i) => i.tradable).map((i) => ({ code: i.code, name: i.name }));
  const byCode = new Map<string, StockOption>();
  for (const option of [...known, ...picked, ...found]) byCode.set(option.code, option);
  return (
    <Select
      {...rest}
      showSearch
      value={value}
      onChange={(code: string) => {
        const option = byCode.get(code);
        if (option !== undefined) setPicked((list) => [...list, option]);
        onChange?.(code);
      }}
      filterOption={false}
      onSearch={setQ}
      loading={search.isFetching}
      placeholder={t('stocks.search')}
      notFoundContent={q.trim() === '' ? t('stocks.typeToSearch') : t('stocks.none')}
      style={{ minWidth: 240 }}
      options={[...byCode.values()].map((o) => ({ value: o.code, label: `${o.code} ${o.name}` }))}
    />
  );
}
