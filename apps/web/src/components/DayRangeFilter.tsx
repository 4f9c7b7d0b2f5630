import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dateInputFormat } from '../lib/format';

/**
 * A list's filter by days (UTC), from one day to another or a single day: `from` and `to` as ISO
 * days, as the list keeps them in the URL. The screen wraps it in a `DatesProvider` in its
 * language, and imports '@mantine/dates/styles.css' (the pickers' styles load with the screen).
 */
export function DayRangeFilter({
  from,
  to,
  onChange,
  label,
  placeholder,
  hint,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from: string | null; to: string | null }) => void;
  label: string;
  placeholder: string;
  /** What the days mean (of the start, UTC): on hover and for screen readers. */
  hint: string;
}) {
  const { t, i18n } = useTranslation();
  const range: DatesRangeValue<string> = [from ?? null, to ?? null];
  return (
    <DatePickerInput
      type="range"
      allowSingleDateInRange
      label={label}
      placeholder={placeholder}
      title={hint}
      value={range}
      onChange={([nextFrom, nextTo]) => onChange({ from: nextFrom, to: nextTo })}
      clearable
      clearButtonProps={{ 'aria-label': t('common:clear') }}
      valueFormat={dateInputFormat(i18n.language)}
      leftSection={<IconCalendar size={16} />}
      popoverProps={{ withinPortal: true }}
    />
  );
}
