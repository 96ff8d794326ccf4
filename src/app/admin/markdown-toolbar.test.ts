import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../blog/markdown.ts';
import { bold, colour, heading, image, insert, italic, TEXT_COLOURS, underline } from './markdown-toolbar.ts';

describe('editor toolbar', () => {
  it('wraps the selection with the exact syntax', () => {
    expect(bold('say hi now', 4, 6).text).toBe('say **hi** now');
    expect(italic('x', 0, 1).text).toBe('*x*');
    expect(underline('', 0, 0).text).toBe('<u>underlined text</u>');
    expect(colour('red', 0, 3, '#dc2626').text).toBe('<span style="color: #dc2626">red</span>');
  });

  it('turns the current line into a heading of the chosen level', () => {
    expect(heading('one\ntwo\nthree', 5, 2).text).toBe('one\n## two\nthree');
    expect(heading('# old', 2, 3).text).toBe('### old');
  });

  it('inserts images and markers at the cursor, block markers on their own line', () => {
    expect(insert('ab', 1, 1, image('/uploads/x.png', 'x')).text).toBe('a![x](/uploads/x.png)b');
    expect(insert('text', 4, 4, '[youtube:dQw4w9WgXcQ]', true).text).toBe('text\n[youtube:dQw4w9WgXcQ]\n');
  });

  it('produces colour spans that survive the sanitizer for every colour', () => {
    for (const c of TEXT_COLOURS) {
      const html = renderMarkdown(colour('x', 0, 1, c.value).text);
      expect(html).toContain(`<span style="color: ${c.value}">x</span>`);
    }
  });
});
