import {
  acceptedCsvLanguage,
  CSV_BOM,
  csvDecimal,
  csvDurationIn,
  csvLocalDateTime,
  csvOffsetName,
  csvReaderFor,
  csvRecord,
  csvText,
  neutralizeCsvCell,
  neutralizeCsvRows,
} from '@vrtc/contract';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';

describe('neutralizeCsvCell (shared with the console)', () => {
  it('prefixes text that a spreadsheet would run as a formula', () => {
    for (const value of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '\rCR']) {
      expect(neutralizeCsvCell(value)).toBe(`'${value}`);
    }
  });

  it('leaves other text, numbers and empty cells alone', () => {
    expect(neutralizeCsvCell('Fire safety')).toBe('Fire safety');
    expect(neutralizeCsvCell('a=b')).toBe('a=b');
    expect(neutralizeCsvCell('')).toBe('');
    expect(neutralizeCsvCell(-5)).toBe(-5);
    expect(neutralizeCsvCell(null)).toBe(null);
    expect(neutralizeCsvCell(undefined)).toBe(undefined);
    expect(neutralizeCsvCell(true)).toBe(true);
  });

  it('applies to every cell of rows, and the BOM is U+FEFF', () => {
    expect(
      neutralizeCsvRows([
        ['=x', 1],
        ['ok', '@y'],
      ]),
    ).toEqual([
      ["'=x", 1],
      ['ok', "'@y"],
    ]);
    expect(CSV_BOM).toBe('\uFEFF');
  });
});

describe('csvRecord and csvText (RFC 4180)', () => {
  it('quotes only the cells that need it, doubling inner quotes', () => {
    expect(
      csvRecord(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', ' padded', 'end ']),
    ).toBe('plain,"a,b","say ""hi""","two\nlines","cr\rhere"," padded","end "');
  });

  it('writes numbers and booleans as text and empty cells for null and undefined', () => {
    expect(csvRecord([1, -2.5, 0, true, false, null, undefined, ''])).toBe(
      '1,-2.5,0,true,false,,,',
    );
  });

  it('ends every record with CRLF, an empty record as an empty line, and reads back as written', () => {
    const records = [['Name', 'Sessions'], [], ['Склад "Север", 2', 12], ['multi\r\nline', null]];
    const text = csvText(records);
    expect(text).toBe('Name,Sessions\r\n\r\n"Склад ""Север"", 2",12\r\n"multi\r\nline",\r\n');
    expect(Papa.parse<string[]>(text, { newline: '\r\n' }).data.slice(0, 4)).toEqual([
      ['Name', 'Sessions'],
      [''],
      ['Склад "Север", 2', '12'],
      ['multi\r\nline', ''],
    ]);
  });
});

describe('a CSV reader (csv-reader.ts, issue 42)', () => {
  it('takes the language from lang, else the first of ru/en Accept-Language prefers', () => {
    expect(csvReaderFor('en', 'ru-RU', 180)).toEqual({ language: 'en', utcOffsetMinutes: 180 });
    expect(csvReaderFor(undefined, 'ru-RU,ru;q=0.9', undefined)).toEqual({
      language: 'ru',
      utcOffsetMinutes: 0,
    });
    expect(acceptedCsvLanguage('de;q=1, en;q=0.4, ru;q=0.7')).toBe('ru');
    expect(acceptedCsvLanguage('EN-us')).toBe('en');
    // Naming neither, a wildcard or a refusal (q=0): today's file.
    for (const header of [undefined, '', '*', 'de-DE,fr;q=0.5', 'ru;q=0'])
      expect(csvReaderFor(undefined, header, 60), String(header)).toBeNull();
  });

  it('splits on `;` quoting what holds one, and writes Russian decimals with a comma', () => {
    expect(csvRecord(['a;b', '66,7', 'x'], ';')).toBe('"a;b";66,7;x');
    expect(
      Papa.parse<string[]>(csvText([['a;b', '66,7']], ';'), { delimiter: ';' }).data[0],
    ).toEqual(['a;b', '66,7']);
    expect(csvDecimal(66.7, 'ru')).toBe('66,7');
    expect(csvDecimal(66.7, 'en')).toBe('66.7');
  });

  it('writes times in the reader’s offset, named, and durations as the console reads them', () => {
    const reader = { language: 'ru', utcOffsetMinutes: -330 } as const;
    expect(csvLocalDateTime('2026-01-01T02:00:00.000Z', reader)).toBe('2025-12-31 20:30:00');
    expect(csvLocalDateTime(null, reader)).toBe('');
    expect([0, 180, -330].map(csvOffsetName)).toEqual(['UTC', 'UTC+03:00', 'UTC-05:30']);
    expect(csvDurationIn(457, 'ru')).toBe('7 мин 37 с');
    expect(csvDurationIn(30_641, 'ru')).toBe('8 ч 30 мин');
    expect(csvDurationIn(30_641, 'en')).toBe('8 h 30 min');
    expect(csvDurationIn(null, 'en')).toBe('');
  });
});
