import { CSV_BOM, csvRecord, csvText, neutralizeCsvCell, neutralizeCsvRows } from '@vrtc/contract';
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
