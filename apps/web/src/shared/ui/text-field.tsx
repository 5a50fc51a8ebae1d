import { Input } from 'antd-mobile';
import { useId } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { FieldError } from './field-error';

/**
 * A labelled antd-mobile Input bound to react-hook-form. The error message is a contract key
 * (e.g. "validation.accountRequired") from the zod schema, translated here.
 */
export interface TextFieldProps<T extends FieldValues, TOut extends FieldValues = T> {
  /** The form's control; its schema may transform the values (e.g. an amount typed as text into sen). */
  control: Control<T, unknown, TOut>;
  name: Path<T>;
  label: string;
  placeholder?: string;
  type?: 'text' | 'password' | 'tel';
  inputMode?: 'text' | 'numeric' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  extra?: React.ReactNode;
}

export function TextField<T extends FieldValues, TOut extends FieldValues = T>(
  props: TextFieldProps<T, TOut>,
) {
  const id = useId();
  const errorId = `${id}-error`;
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const message = fieldState.error?.message;
  const value: unknown = field.value;
  return (
    <div className={`text-field${message === undefined ? '' : ' text-field--invalid'}`}>
      <label className="text-field__label" htmlFor={id}>
        {props.label}
      </label>
      <div className="text-field__row">
        <Input
          id={id}
          name={field.name}
          ref={(instance) => {
            field.ref(instance?.nativeElement ?? null);
          }}
          value={typeof value === 'string' ? value : ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          placeholder={props.placeholder}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete}
          maxLength={props.maxLength}
          aria-invalid={message !== undefined}
          aria-describedby={message === undefined ? undefined : errorId}
          clearable={props.type !== 'password'}
        />
        {props.extra}
      </div>
      <FieldError id={errorId} message={message} />
    </div>
  );
}
