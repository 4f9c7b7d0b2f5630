import { describe, expect, it } from 'vitest';
import { allDictionaries } from './index';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) =>
    keys(child, prefix ? `${prefix}.${key}` : key),
  );
}

/** Plural forms differ by language (ru: one/few/many, en: one/other): compare their stems. */
const normalised = (dictionary: unknown) =>
  [...new Set(keys(dictionary).map((key) => key.replace(PLURAL_SUFFIX, '')))].sort();

// Every dictionary, the admin screens' lazily loaded ones included.
const { ru, en } = await allDictionaries();

describe('translations', () => {
  it('has the same namespaces in Russian and English', () => {
    expect(Object.keys(ru).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(ru).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(ru))('namespace %s has the same keys in both languages', (namespace) => {
    expect(normalised(ru[namespace])).toEqual(normalised(en[namespace]));
  });

  it('has no empty strings', () => {
    for (const language of [ru, en]) {
      for (const dictionary of Object.values(language)) {
        const empty = keys(dictionary).filter((key) => {
          const value = key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], dictionary);
          return typeof value === 'string' && value.trim() === '';
        });
        expect(empty).toEqual([]);
      }
    }
  });

  it('gives Russian every plural form it needs', () => {
    const pluralStems = keys(en)
      .filter((key) => key.endsWith('_one'))
      .map((key) => key.slice(0, -4));
    const ruKeys = new Set(keys(ru));
    for (const stem of pluralStems) {
      for (const form of ['one', 'few', 'many']) expect(ruKeys).toContain(`${stem}_${form}`);
    }
  });
});
