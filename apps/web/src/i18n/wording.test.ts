import { describe, expect, it } from 'vitest';
import { allDictionaries } from './index';

/**
 * The Russian console says one thing one way (issue 10): a headset is always «шлем» (never
 * «устройство», «гарнитура», «девайс»), «завершённая» means only the status "completed" (a session
 * that ended some other way, or anything else that ends, is worded otherwise), and no English is
 * left on a Russian screen beyond product, platform and format names.
 */

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every text of a language as `namespace:dotted.key` → text, plural forms under their stem. */
function texts(language: Record<string, unknown>): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') {
      const stem = key.replace(PLURAL_SUFFIX, '');
      result.set(stem, [...(result.get(stem) ?? []), value]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [child, inner] of Object.entries(value)) {
        walk(inner, key.includes(':') ? `${key}.${child}` : `${key}:${child}`);
      }
    }
  };
  for (const [namespace, dictionary] of Object.entries(language)) walk(dictionary, namespace);
  return result;
}

const { ru, en } = await allDictionaries();
const russian = texts(ru);
const english = texts(en);

/** The Russian texts matching `pattern`, with their English counterparts. */
function matching(pattern: RegExp) {
  return [...russian]
    .filter(([, values]) => values.some((value) => pattern.test(value)))
    .map(([key, values]) => ({ key, ru: values[0]!, en: english.get(key)?.[0] ?? '' }));
}

/** Words a Russian screen may show in Latin letters: names of products, platforms, formats. */
const LATIN_ALLOWED = new Set([
  'VR',
  'Training',
  'Console',
  'Oculus',
  'Pico',
  'Quest',
  'Meta',
  'Horizon',
  'SideQuest',
  'Android',
  'APK',
  'apk',
  'ADB',
  'Unity',
  'SDK',
  'USB',
  'CSV',
  'QR',
  'UTC',
  // Results out: the protocols an integration speaks.
  'xAPI',
  'LRS',
  'HTTP',
  'http',
  'https',
  'v',
  // Provisioning: the protocol, the address the directory is given, and the directories' names.
  'SCIM',
  'URL',
  'Entra',
  'ID',
  'Okta',
  // API tokens: the interface's name, and the header a script sends the token in, as typed.
  'API',
  'Authorization',
  'Bearer',
  // Into an LMS: the systems and the package standard by their names, and the headset's PIN.
  'LMS',
  'SCORM',
  'PIN',
]);

describe('Russian wording', () => {
  it('calls a headset «шлем» everywhere', () => {
    expect(matching(/устройств|гарнитур|девайс/i)).toEqual([]);
    // Where the English says headset or device, the Russian says шлем.
    const aboutHeadsets = [...english].filter(([, values]) =>
      values.some((value) => /\b(headsets?|devices?)\b/i.test(value)),
    );
    expect(aboutHeadsets.length).toBeGreaterThan(10);
    const otherwise = aboutHeadsets
      .filter(([key]) => !(russian.get(key) ?? []).some((value) => /шлем/i.test(value)))
      .map(([key]) => key);
    expect(otherwise).toEqual([]);
  });

  it('uses «завершённая» for the status "completed" only', () => {
    const completed = matching(/заверш[её]н/i);
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.filter((text) => !/complet/i.test(text.en))).toEqual([]);
  });

  it('says «электронная почта», not "email", and has no hyphen standing for a dash', () => {
    // Outside interpolations: `{{email}}` shows the address itself.
    expect(matching(/(^|[^{])\bemail\b(?!}})/i)).toEqual([]);
    // A dash between words is « — »; a hyphen with spaces around it is a typo for one.
    expect(matching(/\s-\s/)).toEqual([]);
  });

  it('leaves no English word on a Russian screen', () => {
    const latin = [...russian].flatMap(([key, values]) =>
      values.flatMap((value) =>
        (
          value
            // Interpolations and the markup of rich texts are not shown as written.
            .replace(/\{\{[^}]*\}\}/g, '')
            .replace(/<\/?\w+>/g, '')
            .match(/[A-Za-z]+/g) ?? []
        )
          .filter((word) => !LATIN_ALLOWED.has(word))
          .map((word) => `${key}: ${word}`),
      ),
    );
    expect(latin).toEqual([]);
  });
});
