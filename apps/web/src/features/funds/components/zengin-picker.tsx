import type { TZenginEntry } from '@kabuto/contract';
import { useQuery } from '@tanstack/react-query';
import { List, Popup, SearchBar } from 'antd-mobile';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError } from '@/shared/ui/field-error';
import { banksQuery, branchesQuery } from '../api/banks';

/** The query after the user stopped typing for `ms`. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(value);
    }, ms);
    return () => {
      clearTimeout(timer);
    };
  }, [value, ms]);
  return settled;
}

/**
 * A bank or branch chosen from the Zengin data: a field showing the choice; tapping it opens a sheet with a
 * search bar (code, name, kana or romaji; debounced) and the matching entries.
 */
export function ZenginPicker({
  kind,
  bankCode = '',
  value,
  onChange,
  error,
  disabled = false,
}: {
  kind: 'bank' | 'branch';
  bankCode?: string;
  value: TZenginEntry | null;
  onChange: (entry: TZenginEntry) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim(), 250);
  const banks = useQuery(banksQuery(q, open && kind === 'bank'));
  const branches = useQuery(branchesQuery(bankCode, q, open && kind === 'branch'));
  const found = kind === 'bank' ? banks : branches;
  const label = kind === 'bank' ? t('banking.bank') : t('banking.branch');
  const placeholder = kind === 'bank' ? t('banking.pickBank') : t('banking.pickBranch');
  return (
    <div className={`text-field${error === undefined ? '' : ' text-field--invalid'}`}>
      <span className="text-field__label" id={id}>
        {label}
      </span>
      <button
        type="button"
        className="zengin-picker__field"
        aria-labelledby={id}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
        data-testid={`pick-${kind}`}
        disabled={disabled}
        onClick={() => {
          setTyped('');
          setOpen(true);
        }}
      >
        {value === null ? (
          <span className="zengin-picker__placeholder">{placeholder}</span>
        ) : (
          <span>
            {value.name} <small>（{value.code}）</small>
          </span>
        )}
      </button>
      {error !== undefined && <FieldError id={`${id}-error`} message={error} />}
      <Popup
        visible={open}
        onMaskClick={() => {
          setOpen(false);
        }}
        bodyStyle={{ height: '80vh', display: 'flex', flexDirection: 'column' }}
      >
        <div className="zengin-picker__search">
          <SearchBar
            placeholder={kind === 'bank' ? t('banking.searchBank') : t('banking.searchBranch')}
            value={typed}
            onChange={setTyped}
            showCancelButton
            cancelText={t('common.cancel')}
            onCancel={() => {
              setOpen(false);
            }}
            autoFocus
          />
        </div>
        <div className="zengin-picker__list" aria-label={label} data-testid={`${kind}-results`}>
          {found.data?.items.length === 0 ? (
            <p className="zengin-picker__empty">{t('banking.noMatch')}</p>
          ) : (
            <List>
              {(found.data?.items ?? []).map((entry) => (
                <List.Item
                  key={entry.code}
                  description={`${entry.kana}・${entry.code}`}
                  onClick={() => {
                    onChange(entry);
                    setOpen(false);
                  }}
                >
                  {entry.name}
                </List.Item>
              ))}
            </List>
          )}
        </div>
      </Popup>
    </div>
  );
}
