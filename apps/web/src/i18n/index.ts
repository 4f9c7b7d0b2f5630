import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Local-storage key of the preferred language, stored as `ru` or `en`. */
export const LANGUAGE_KEY = 'language';

type Dictionary = Record<string, unknown>;

// Every feature keeps its strings in locales/<language>/<namespace>.json; all are bundled.
const files = import.meta.glob<Dictionary>('./locales/*/*.json', { eager: true, import: 'default' });

export function dictionaries(): Record<Language, Record<string, Dictionary>> {
  const result: Record<Language, Record<string, Dictionary>> = { ru: {}, en: {} };
  for (const [path, dictionary] of Object.entries(files)) {
    const match = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match;
    if (language === 'ru' || language === 'en') result[language][namespace!] = dictionary;
  }
  return result;
}

export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return value === 'en' || value === 'ru' ? value : 'ru';
  } catch {
    return 'ru';
  }
}

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** Locale for dates and numbers: Russian unless the language is English. */
export function dateLocale(language: string): string {
  return language === 'en' ? 'en-GB' : 'ru-RU';
}

const resources = dictionaries();
void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  defaultNS: 'common',
  ns: Object.keys(resources.ru),
  interpolation: { escapeValue: false },
  returnNull: false,
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

export default i18n;
