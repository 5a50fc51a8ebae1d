import { DatePicker } from 'antd-mobile';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/shared/format/format';
import { useLocale } from '@/shared/i18n/use-locale';
import { dateFromIso, dateWheelLabel, isoFromDate } from './date-wheel';

/**
 * A calendar date chosen with the UI kit's wheel (antd-mobile DatePicker) in place of the browser's
 * `<input type="date">`, which shows "mm/dd/yyyy" and its own language whatever the app's language is.
 * The field is a button showing the date in the reader's language (or a placeholder); the value is
 * "YYYY-MM-DD", or '' when none is chosen (and `clearable` lets the reader go back to none).
 */
export function DateField({
  label,
  value,
  onChange,
  min,
  max,
  clearable = false,
  invalid = false,
  describedBy,
  testId,
  buttonRef,
  onBlur,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  clearable?: boolean;
  invalid?: boolean;
  describedBy?: string;
  testId?: string;
  buttonRef?: (element: HTMLButtonElement | null) => void;
  onBlur?: () => void;
  className?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [open, setOpen] = useState(false);
  const chosen = dateFromIso(value);
  const minDate = min === undefined ? undefined : (dateFromIso(min) ?? undefined);
  const maxDate = max === undefined ? undefined : (dateFromIso(max) ?? undefined);
  // the wheel cannot reach before 10 years ago or after 10 years on unless told: a statement's period and a
  // transfer date are within that
  const now = new Date();
  return (
    <div className={`date-field${className === undefined ? '' : ` ${className}`}`} data-testid={testId}>
      <label className="date-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="date-field__row">
        <button
          id={id}
          ref={buttonRef}
          type="button"
          className={`date-field__button${chosen === null ? ' date-field__button--empty' : ''}`}
          aria-haspopup="dialog"
          aria-invalid={invalid}
          aria-describedby={describedBy}
          data-value={value}
          onClick={() => {
            setOpen(true);
          }}
          onBlur={onBlur}
        >
          {chosen === null ? t('datePicker.choose') : formatDate(value, locale)}
        </button>
        {clearable && chosen !== null && (
          <button
            type="button"
            className="date-field__clear"
            aria-label={t('datePicker.clearNamed', { name: label })}
            onClick={() => {
              onChange('');
            }}
          >
            {t('datePicker.clear')}
          </button>
        )}
      </div>
      <DatePicker
        visible={open}
        title={label}
        confirmText={t('datePicker.done')}
        cancelText={t('common.cancel')}
        precision="day"
        value={chosen ?? maxDate ?? now}
        min={minDate ?? new Date(now.getFullYear() - 10, 0, 1)}
        max={maxDate ?? new Date(now.getFullYear() + 10, 11, 31)}
        renderLabel={(type, data) => dateWheelLabel(locale, type, data)}
        onClose={() => {
          setOpen(false);
        }}
        onConfirm={(date) => {
          onChange(isoFromDate(date));
        }}
      />
    </div>
  );
}
