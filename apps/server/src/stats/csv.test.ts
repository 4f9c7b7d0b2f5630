import { CSV_BOM, neutralizeCsvCell, neutralizeCsvRows } from '@vrtc/contract';
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
