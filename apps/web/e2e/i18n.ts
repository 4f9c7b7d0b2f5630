import type { Language } from './support';

/**
 * The console's own dictionaries, so tests find controls by the text a user reads in either
 * language (and a changed wording changes the test's expectation with it).
 */
type Dictionary = Record<string, unknown>;

const files = import.meta.glob<Dictionary>('../src/i18n/locales/*/*.json', {
  eager: true,
  import: 'default',
});

const dictionaries: Record<Language, Record<string, Dictionary>> = { ru: {}, en: {} };
for (const [path, dictionary] of Object.entries(files)) {
  const match = /locales\/(ru|en)\/([\w-]+)\.json$/.exec(path);
  if (match) dictionaries[match[1] as Language][match[2]!] = dictionary;
}

function lookup(language: Language, namespace: string, path: string): string | undefined {
  let value: unknown = dictionaries[language][namespace];
  for (const part of path.split('.')) {
    value = typeof value === 'object' && value !== null ? (value as Dictionary)[part] : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

/**
 * A translated text: `tr('en', 'vrUsers:deleteDisabled', { count: 1 })`. With a `count`, the
 * plural form of the language is used when the dictionary has one (key_one, key_few, ...).
 */
export function tr(
  language: Language,
  key: string,
  values: Record<string, string | number> = {},
): string {
  const [namespace, path] = key.includes(':')
    ? (key.split(':', 2) as [string, string])
    : ['common', key];
  let text: string | undefined;
  if (typeof values.count === 'number') {
    const form = new Intl.PluralRules(language).select(values.count);
    text =
      lookup(language, namespace, `${path}_${form}`) ??
      lookup(language, namespace, `${path}_other`);
  }
  text ??= lookup(language, namespace, path);
  if (text === undefined) throw new Error(`No ${language} text for ${key}`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** The console's languages, for tests that run in each. */
export const LANGUAGES: Language[] = ['ru', 'en'];

/**
 * A day as the console writes every date (lib/format.ts): ru "10.12.2026", en "10/12/2026". Spelt
 * out here, not imported, so a test fails when the console's format drifts.
 */
export function dayText(language: Language, day: Date, zone: 'local' | 'UTC' = 'local'): string {
  const parts =
    zone === 'UTC'
      ? [day.getUTCDate(), day.getUTCMonth() + 1, day.getUTCFullYear()]
      : [day.getDate(), day.getMonth() + 1, day.getFullYear()];
  const [d, m, y] = parts.map((part) => String(part).padStart(2, '0'));
  return [d, m, y].join(language === 'en' ? '/' : '.');
}
