// English's dictionaries of the login page and the layout, in one file loaded when the console is
// first shown in English (Russian's are bundled: see index.ts).
export const english = import.meta.glob<Record<string, unknown>>(
  './locales/en/{common,auth,layout,errors}.json',
  { eager: true, import: 'default' },
);
