import { describe, expect, it } from 'vitest';
import { extractHeadings, renderMarkdown } from './markdown.ts';

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

describe('media markers', () => {
  it('turns [youtube:ID] into a lazy privacy-enhanced frame', () => {
    const html = renderMarkdown('Watch this:\n\n[youtube:dQw4w9WgXcQ]');
    expect(html).toContain(
      '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video"',
    );
    expect(html).toContain('loading="lazy"');
  });

  it('turns [podcast:URL] into an audio player and refuses other schemes', () => {
    expect(renderMarkdown('[podcast:https://cdn.example.com/ep1.mp3]')).toContain(
      '<audio controls preload="none" src="https://cdn.example.com/ep1.mp3"></audio>',
    );
    expect(renderMarkdown('[podcast:javascript:alert(1)]')).not.toContain('<audio');
  });

  it('keeps only youtube-nocookie frames, even when written by hand', () => {
    const html = renderMarkdown('<iframe src="https://evil.example/embed/x"></iframe>');
    expect(html).not.toContain('evil.example');
  });

  it('lazy-loads images and lists headings for a table of contents', () => {
    const html = renderMarkdown(
      '## First part\n\n![alt](/demo/code.svg)\n\n### A detail\n\n## Second & last',
    );
    expect(html).toContain('loading="lazy"');
    expect(extractHeadings(html)).toEqual([
      { level: 2, id: 'first-part', text: 'First part' },
      { level: 3, id: 'a-detail', text: 'A detail' },
      { level: 2, id: 'second--last', text: 'Second & last' },
    ]);
  });
});
