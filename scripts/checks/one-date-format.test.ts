import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console writes dates one way per language (issue 27): every list, page, dialog, print view
 * and date field goes through the date helpers of apps/web/src/lib/format.ts. Anything else that
 * formats a date for people to read (Intl.DateTimeFormat, toLocale…String, dateStyle/timeStyle,
 * a dayjs display format, a date field's literal valueFormat) would bring a second format back.
 * Days as the API writes them ('YYYY-MM-DD') are data, not display, and may be written anywhere.
 */
const root = path.resolve(import.meta.dirname, '../..');

const HELPERS = 'apps/web/src/lib/format.ts';

/** The console's own code: not its tests, their helpers, nor the date helpers themselves. */
function isConsoleCode(file: string): boolean {
  if (!file.startsWith('apps/web/src/') || !/\.(ts|tsx)$/.test(file)) return false;
  if (file === HELPERS) return false;
  return !/\.test\.tsx?$/.test(file) && !file.startsWith('apps/web/src/test/');
}

const FORMATTING: Array<{ what: string; pattern: RegExp }> = [
  { what: 'Intl.DateTimeFormat', pattern: /\bIntl\s*\.\s*DateTimeFormat\b/g },
  { what: 'toLocaleString and kin', pattern: /\.toLocale(Date|Time)?String\s*\(/g },
  { what: 'dateStyle/timeStyle', pattern: /\b(dateStyle|timeStyle)\s*:/g },
  { what: "a date field's own format", pattern: /\bvalueFormat\s*=\s*(?!\{\s*dateInputFormat\()/g },
  {
    what: 'a dayjs display format',
    pattern: /\.format\(\s*(['"`])(?!YYYY-MM-DD\1)[^'"`]*[DMYHhm][^'"`]*\1/g,
  },
];

/** Where one file's text formats a date itself, as `line: what`. */
function ownDateFormats(text: string): string[] {
  const found: string[] = [];
  for (const { what, pattern } of FORMATTING) {
    for (const match of text.matchAll(pattern)) {
      found.push(`${text.slice(0, match.index).split('\n').length}: ${what}`);
    }
  }
  return found;
}

describe('one date format in the console', () => {
  it('the check sees each way of formatting a date, and lets ISO days and the helpers be', () => {
    expect(ownDateFormats("new Intl.DateTimeFormat('ru-RU').format(d)")).toEqual([
      '1: Intl.DateTimeFormat',
    ]);
    expect(ownDateFormats('a.toLocaleDateString()\nb.toLocaleString("en")')).toEqual([
      '1: toLocaleString and kin',
      '2: toLocaleString and kin',
    ]);
    expect(ownDateFormats('format(d, { dateStyle: "medium" })')).toEqual([
      '1: dateStyle/timeStyle',
    ]);
    expect(ownDateFormats('<DatePickerInput valueFormat="D MMMM YYYY" />')).toEqual([
      "1: a date field's own format",
    ]);
    expect(ownDateFormats("dayjs(d).format('DD.MM.YYYY')")).toEqual(['1: a dayjs display format']);
    expect(
      ownDateFormats(
        "dayjs(d).format('YYYY-MM-DD')\n<DatePickerInput valueFormat={dateInputFormat(lang)} />\n" +
          "formatDateTime(at, lang)\nname.toLocaleLowerCase()\nt('x', { format: 'a' })",
      ),
    ).toEqual([]);
  });

  it('no console code but the date helpers formats a date', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'apps/web/src'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file && isConsoleCode(file) && fs.existsSync(path.join(root, file)));
    expect(files.length).toBeGreaterThan(50);
    expect(fs.readFileSync(path.join(root, HELPERS), 'utf8')).toMatch(/Intl\.DateTimeFormat/);
    const formats = files.flatMap((file) =>
      ownDateFormats(fs.readFileSync(path.join(root, file), 'utf8')).map(
        (where) => `${file}:${where}`,
      ),
    );
    expect(formats).toEqual([]);
  });
});
