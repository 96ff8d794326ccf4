import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.ts';

describe('CSV export', () => {
  it('neutralises cells that a spreadsheet would run as formulas', () => {
    for (const bad of ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)'])
      expect(csvCell(bad).startsWith(`"'`)).toBe(true);
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
  });

  it('quotes commas, quotes and newlines and leaves plain cells alone', () => {
    expect(csvCell('reader@example.com')).toBe('reader@example.com');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a,b\r\nc,d\r\n');
  });
});

describe('CSV import', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and numbers records by their first line', () => {
    const text =
      '\uFEFFname,email\r\n"Doe, Jane",jane@example.com\r\n"He said ""hi""\nover two lines",x@example.com\r\nlast,y@example.com';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['name', 'email'] },
      { line: 2, fields: ['Doe, Jane', 'jane@example.com'] },
      { line: 3, fields: ['He said "hi"\nover two lines', 'x@example.com'] },
      { line: 5, fields: ['last', 'y@example.com'] },
    ]);
  });

  it('keeps blank lines and empty fields, and accepts LF or CR line ends', () => {
    expect(parseCsv('a,\n\n,b\rc\n')).toEqual([
      { line: 1, fields: ['a', ''] },
      { line: 2, fields: [''] },
      { line: 3, fields: ['', 'b'] },
      { line: 4, fields: ['c'] },
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('reads what the export writes', () => {
    const rows = [
      ['email', 'note'],
      ['a@example.com', 'commas, "quotes"\r\nand lines'],
    ];
    expect(parseCsv(toCsv(rows)).map((r) => r.fields)).toEqual(rows);
  });

  it('is lenient with stray and unclosed quotes', () => {
    expect(parseCsv('ab"c,"d"e\n"open,f')).toEqual([
      { line: 1, fields: ['ab"c', 'de'] },
      { line: 2, fields: ['open,f'] },
    ]);
  });
});
