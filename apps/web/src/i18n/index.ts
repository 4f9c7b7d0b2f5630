import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { nestedQuotes } from './quotes';

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Local-storage key of the preferred language, stored as `ru` or `en`. */
export const LANGUAGE_KEY = 'language';

type Dictionary = Record<string, unknown>;

// Every feature keeps its strings in locales/<language>/<namespace>.json. Only what every page
// needs is bundled (the layout's, and `errors`: any screen words a refused request), and only in
// Russian, the language of a first visit: English's same dictionaries load as one file when the
// console is first shown in English (english.ts), so a page in one language never carries the
// other's (issue #27). Each screen's namespace loads with the screen (see app/routes.tsx), in the
// language shown, so adding strings to a screen never grows another's first visit: the login
// page's own (`auth`, with its single sign-on messages) loads with the login page, not with every
// signed-in page (issue #42).
const BUNDLED: readonly string[] = ['common', 'layout', 'errors'];
const files = import.meta.glob<Dictionary>('./locales/ru/{common,layout,errors}.json', {
  eager: true,
  import: 'default',
});
const lazyFiles = import.meta.glob<Dictionary>(
  ['./locales/*/*.json', '!./locales/*/{common,layout,errors}.json'],
  { import: 'default' },
);
const englishBundled = () => import('./english').then((module) => module.english);

function byLanguage(
  entries: Array<[string, Dictionary]>,
): Record<Language, Record<string, Dictionary>> {
  const result: Record<Language, Record<string, Dictionary>> = { ru: {}, en: {} };
  for (const [path, dictionary] of entries) {
    const match = /\.\/locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match;
    if (language === 'ru' || language === 'en') result[language][namespace!] = dictionary;
  }
  return result;
}

/** The bundled dictionaries (the layout's and the shared ones), Russian only. */
export function dictionaries(): Record<Language, Record<string, Dictionary>> {
  return byLanguage(Object.entries(files));
}

/** Every dictionary, the lazily loaded ones included (for the key-parity test). */
export async function allDictionaries(): Promise<Record<Language, Record<string, Dictionary>>> {
  const lazy = await Promise.all(
    Object.entries(lazyFiles).map(
      async ([path, load]) => [path, await load()] as [string, Dictionary],
    ),
  );
  return byLanguage([...Object.entries(files), ...Object.entries(await englishBundled()), ...lazy]);
}

/** Names of the lazily loaded namespaces, e.g. for preloading them in tests. */
export const LAZY_NAMESPACES = [
  ...new Set(Object.keys(lazyFiles).map((path) => /([\w-]+)\.json$/.exec(path)![1]!)),
];

/**
 * i18next backend for the lazily loaded namespaces, and for English's bundled ones; Russian's
 * bundled ones are already in the store.
 */
const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load =
      language === 'en' && BUNDLED.includes(namespace)
        ? () =>
            englishBundled().then(
              (english) => english[`./locales/en/${namespace}.json`] ?? ({} as Dictionary),
            )
        : lazyFiles[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (dictionary) => callback(null, dictionary),
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

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
}

/** Locale for dates and numbers: Russian unless the language is English. */
export function dateLocale(language: string): string {
  return language === 'en' ? 'en-GB' : 'ru-RU';
}

/**
 * The page speaks the console's language: the document's `lang` (screen readers, hyphenation) and
 * its title (the tab, bookmarks) follow every change, the first one at start-up included.
 */
i18n.on('languageChanged', (language) => {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.title = i18n.t('common:appName', { lng: language });
});

const resources = { ru: dictionaries().ru };
void i18n
  .use(lazyBackend)
  .use(nestedQuotes)
  .use(initReactI18next)
  .init({
    resources,
    // Namespaces missing from `resources` (the screens' own) come from lazyBackend on first use.
    partialBundledLanguages: true,
    lng: storedLanguage(),
    // No fallback language: a Russian page would load English's dictionaries too. None is needed:
    // dictionaries.test.ts keeps both languages' keys the same.
    fallbackLng: false,
    supportedLngs: LANGUAGES,
    defaultNS: 'common',
    // A copy: i18next adds each namespace it loads to this list.
    ns: [...BUNDLED],
    interpolation: { escapeValue: false },
    postProcess: ['nestedQuotes'],
    returnNull: false,
  });

export default i18n;
