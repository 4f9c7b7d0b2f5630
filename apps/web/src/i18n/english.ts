// English's dictionaries every page needs (the layout's and the shared ones), in one file loaded
// when the console is first shown in English (Russian's are bundled: see index.ts).
export const english = import.meta.glob<Record<string, unknown>>(
  './locales/en/{common,layout,errors}.json',
  { eager: true, import: 'default' },
);
