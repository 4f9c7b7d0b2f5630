import { dateLocale } from '../../i18n';

/** An expiry is 23:59:59 UTC of the chosen day: shown as that day, whatever the local zone. */
export function formatExpiryDay(iso: string, language: string): string {
  return new Intl.DateTimeFormat(dateLocale(language), {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(new Date(iso));
}
