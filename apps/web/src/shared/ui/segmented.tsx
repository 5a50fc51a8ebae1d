import { useId } from 'react';

/**
 * A segmented choice (direction, price type, leverage): a radiogroup of buttons, so that it is one tab
 * stop with a clear checked state for screen readers.
 */
export interface SegmentedOption<T extends string | number> {
  value: T;
  label: string;
  className?: string;
}

export function Segmented<T extends string | number>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="segmented-field">
      <span className="segmented-field__label" id={id}>
        {label}
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby={id} data-testid={testId}>
        {options.map((option) => {
          const checked = option.value === value;
          return (
            <button
              key={String(option.value)}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={checked ? 0 : -1}
              className={`segmented__item${checked ? ' segmented__item--on' : ''}${
                option.className === undefined ? '' : ` ${option.className}`
              }`}
              onClick={() => {
                onChange(option.value);
              }}
              onKeyDown={(event) => {
                const i = options.findIndex((o) => o.value === value);
                const delta =
                  event.key === 'ArrowRight' || event.key === 'ArrowDown'
                    ? 1
                    : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
                      ? -1
                      : 0;
                if (delta === 0) return;
                event.preventDefault();
                const next = options[(i + delta + options.length) % options.length];
                if (next !== undefined) onChange(next.value);
              }}
            >
              {option.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** A number field with − and + buttons (price by tick, quantity by lot). */
export function StepperField({
  label,
  value,
  onChange,
  onStep,
  error,
  hint,
  decLabel,
  incLabel,
  inputMode = 'numeric',
  testId,
  suffix,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  onStep: (direction: 1 | -1) => void;
  error?: string | null;
  hint?: string;
  decLabel: string;
  incLabel: string;
  inputMode?: 'numeric' | 'decimal';
  testId?: string;
  suffix?: string;
}) {
  const id = useId();
  const describedBy = [error != null ? `${id}-error` : null, hint === undefined ? null : `${id}-hint`]
    .filter((v) => v !== null)
    .join(' ');
  return (
    <div className={`stepper-field${error != null ? ' stepper-field--invalid' : ''}`}>
      <label className="stepper-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="stepper-field__row">
        <button
          type="button"
          className="stepper-field__btn"
          aria-label={decLabel}
          onClick={() => {
            onStep(-1);
          }}
        >
          −
        </button>
        <input
          id={id}
          className="stepper-field__input"
          value={value}
          inputMode={inputMode}
          autoComplete="off"
          aria-invalid={error != null}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          data-testid={testId}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        />
        {suffix !== undefined && <span className="stepper-field__suffix">{suffix}</span>}
        <button
          type="button"
          className="stepper-field__btn"
          aria-label={incLabel}
          onClick={() => {
            onStep(1);
          }}
        >
          +
        </button>
      </div>
      {hint !== undefined && (
        <p className="stepper-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error != null && (
        <p className="stepper-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
