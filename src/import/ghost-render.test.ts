import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptyNotes, htmlToMarkdown } from './content.ts';
import { readGhost } from './ghost.ts';
import type { ImportItem, ReaderEvent } from './types.ts';

const FIXTURE = new URL('../../tests/fixtures/import/ghost-6-export.json', import.meta.url);
const items = (document: unknown) =>
  [...readGhost(document)].flatMap((e: ReaderEvent) => (e.type === 'item' ? [e.item] : []));
const markdown = (item: ImportItem) => htmlToMarkdown(item.html, emptyNotes());
const ghostDoc = (post: Record<string, unknown>) => ({
  db: [{ data: { posts: [{ id: '1', title: 'T', slug: 't', status: 'published', ...post }] } }],
});

describe('Ghost posts without html', () => {
  it('render their Lexical document to the same Markdown as the html Ghost wrote', () => {
    const original = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const stripped = structuredClone(original);
    for (const post of stripped.db[0].data.posts) delete post.html;
    const [withHtml, fromLexical] = [items(original), items(stripped)];
    expect(fromLexical.length).toBeGreaterThan(0);
    fromLexical.forEach((item, i) => {
      expect(markdown(item), item.slug).toBe(markdown(withHtml[i]));
      expect(item.warnings).toEqual(withHtml[i].warnings);
    });
    const about = markdown(fromLexical.find((item) => item.slug === 'about') as ImportItem);
    expect(about).toMatch(/^### Access all areas$/m);
    expect(about).toMatch(/^Penstand peer is an independent publication/m);
    expect(fromLexical.map(markdown).join('\n')).toMatch(/\[[^\]]+\]\(https?:\/\/[^)]+\)/);
  });

  it('render a Mobiledoc document: sections, marks, lists, cards; an unknown card as text with a warning', () => {
    const mobiledoc = {
      version: '0.3.1',
      atoms: [],
      markups: [['a', ['href', 'https://example.com/x']], ['strong'], ['em']],
      cards: [
        ['hr', {}],
        ['code', { code: 'let a = 1 < 2;', language: 'js' }],
        ['image', { src: '/content/images/cat.jpg', alt: 'A cat' }],
        [
          'embed',
          {
            url: 'https://youtu.be/dQw4w9WgXcQ',
            html: '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
          },
        ],
        ['gallery-of-doom', { caption: 'Kept caption' }],
      ],
      sections: [
        [1, 'h2', [[0, [], 0, 'Old heading']]],
        [
          1,
          'p',
          [
            [0, [], 0, 'See '],
            [0, [0, 1], 2, 'this link'],
            [0, [2], 1, ' now'],
          ],
        ],
        [1, 'blockquote', [[0, [], 0, 'Quoted']]],
        [3, 'ul', [[[0, [], 0, 'one']], [[0, [], 0, 'two']]]],
        [10, 0],
        [10, 1],
        [10, 2],
        [10, 3],
        [10, 4],
      ],
    };
    const [item] = items(ghostDoc({ mobiledoc: JSON.stringify(mobiledoc) }));
    const md = markdown(item);
    for (const part of [
      /^## Old heading$/m,
      /^See \[\*\*this link\*\*\]\(https:\/\/example\.com\/x\) \*now\*$/m,
      /^\* \* \*$/m,
      /^> Quoted$/m,
      /^- +one$/m,
      /^- +two$/m,
      /```js\nlet a = 1 < 2;\n```/,
      /!\[A cat\]\(\/content\/images\/cat\.jpg\)/,
      /\[youtube:dQw4w9WgXcQ\]/,
      /^Kept caption$/m,
    ])
      expect(md).toMatch(part);
    expect(item.warnings).toEqual(["unknown Ghost card 'gallery-of-doom': imported as its text"]);
  });

  it('fall back to the plain text with a warning when the editor document is unreadable', () => {
    const [item] = items(ghostDoc({ lexical: '{not json', plaintext: 'Just text' }));
    expect(markdown(item)).toBe('Just text');
    expect(item.warnings).toEqual([
      'its Lexical document could not be read',
      'no HTML body in the export: imported from its plain text',
    ]);
  });
});
