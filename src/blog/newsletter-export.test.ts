import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './newsletter-export.ts';

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
