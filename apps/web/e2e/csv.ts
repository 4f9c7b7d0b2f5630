import { expect } from 'vitest';

/**
 * A CSV file as Excel opens it in a language (issue 42): the byte-order mark makes it read the
 * bytes as UTF-8, and it splits cells on the language's list separator (`;` in Russian, whose
 * decimal mark is a comma; `,` in English), quotes as RFC 4180 writes them. Every row has the
 * header's cells.
 */
export function readCsvAsExcel(bytes: Buffer, language: 'ru' | 'en') {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(bytes.subarray(3).toString('utf8'), language === 'ru' ? ';' : ',');
  const [header = [], ...rows] = records;
  for (const row of rows) expect(row).toHaveLength(header.length);
  return {
    header,
    rows,
    /** Each row by its header's names. */
    named: rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]!]))),
  };
}

function parse(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    record.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === separator) {
      endCell();
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      endCell();
      records.push(record);
      record = [];
      i++;
    } else {
      cell += char;
    }
  }
  if (cell || record.length) {
    endCell();
    records.push(record);
  }
  return records;
}
