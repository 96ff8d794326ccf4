import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('renders headings with anchor ids, emphasis and the toolbar underline', () => {
    const html = renderMarkdown('## Getting started\n\n**bold** *it* <u>under</u>');
    expect(html).toContain('<h2 id="getting-started">Getting started</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<u>under</u>');
  });

  it('keeps colour spans and drops any other style', () => {
    expect(renderMarkdown('<span style="color: #ef4444">red</span>')).toContain(
      '<span style="color: #ef4444">red</span>',
    );
    expect(renderMarkdown('<span style="position:fixed">x</span>')).not.toContain('position');
  });

  it('removes scripts, event handlers and javascript: URLs', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script><img src="x" onerror="alert(1)">\n\n[a](javascript:alert(1))\n\n<iframe src="https://evil"></iframe>',
    );
    expect(html).not.toMatch(/<script|onerror|href="javascript:|<iframe/i);
    expect(html).toContain('<a>a</a>');
  });
});
