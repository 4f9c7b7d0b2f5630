import { inLanguage } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Content (a scenario, module, level or option) with its optional English text. */
export interface Named {
  name: string;
  name_en?: string | null;
}
export interface Described {
  description: string;
  description_en?: string | null;
}

/** Content's text in a language: the primary (Russian) or English one, each falling back. */
export function contentText(language: string) {
  return {
    language,
    /** Any pair of texts, e.g. a session's scenario_name and scenario_name_en. */
    text: (primary: string, english: string | null | undefined) =>
      inLanguage(language, primary, english),
    name: (item: Named) => inLanguage(language, item.name, item.name_en),
    description: (item: Described) => inLanguage(language, item.description, item.description_en),
  };
}

export type ContentText = ReturnType<typeof contentText>;

/** contentText in the console's language; re-renders when the language changes. */
export function useContentText(): ContentText {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => contentText(language), [language]);
}
