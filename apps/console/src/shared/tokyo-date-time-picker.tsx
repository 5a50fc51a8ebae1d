import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/** The wall-clock text the console's forms keep for a Tokyo date and time: `YYYY-MM-DDTHH:mm`. */
export const TOKYO_WALL_CLOCK = 'YYYY-MM-DDTHH:mm';

/**
 * antd's date-time picker in the operator's language (antd's and dayjs' locales follow the console's),
 * for a date and time that is Tokyo's whatever the operator's own time zone is: the value is the Tokyo
 * wall-clock text `YYYY-MM-DDTHH:mm` (read as +09:00 by the form that sends it), and the picker only shows
 * and edits those digits. Used as a Form.Item's control (value/onChange injected).
 */
export function TokyoDateTimePicker({
  value,
  onChange,
  id,
  width = 220,
  testId,
}: {
  value?: string | undefined;
  onChange?: (value: string | undefined) => void;
  id?: string;
  width?: number;
  testId?: string;
}) {
  const parsed = value === undefined || value === '' ? null : dayjs(value);
  return (
    <DatePicker
      id={id}
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      value={parsed?.isValid() === true ? parsed : null}
      onChange={(next: Dayjs | null) => onChange?.(next === null ? undefined : next.format(TOKYO_WALL_CLOCK))}
      style={{ width }}
      data-testid={testId}
    />
  );
}
