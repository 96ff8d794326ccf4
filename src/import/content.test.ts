import { describe, expect, it } from 'vitest';
import { XSS_CORPUS } from '../../tests/support/xss-corpus.ts';
import { renderMarkdown } from '../blog/markdown.ts';
import { type MailProducts, mailBody, plainText } from '../blog/newsletter-delivery.ts';
import { emptyNotes, htmlToMarkdown, htmlToText } from './content.ts';

/** A mail of a post that shows no product. */
const SHOP: MailProducts = { products: new Map(), currency: 'usd', publicUrl: 'https://blog.example' };

/** An imported body as readers get it: converted, then rendered by the editor's pipeline. */
function imported(html: string) {
  const notes = emptyNotes();
  const markdown = htmlToMarkdown(html, notes);
  return { markdown, html: renderMarkdown(markdown), notes };
}

describe('imported bodies', () => {
  it('never keep a script, an event handler or a javascript: URL, in Markdown or kept HTML', () => {
    for (const payload of XSS_CORPUS) {
      // Once as plain content, once inside a table with merged cells (kept as HTML).
      for (const body of [payload, `<table><tr><td colspan="2">${payload}</td></tr></table>`]) {
        const { html } = imported(body);
        expect(html, body).not.toMatch(/<script/i);
        expect(html, body).not.toMatch(/\son[a-z]+\s*=/i);
        // As text ('[click](javascript:…)' shown literally) it is harmless; as an address it is not.
        expect(html, body).not.toMatch(/(href|src|action|data)\s*=\s*["']?\s*javascript:/i);
      }
    }
  });

  it('keep tables with merged cells and galleries as sanitized HTML', () => {
    const { markdown, notes } = imported(
      '<table><tr><th colspan="2" onclick="x()">Both</th></tr><tr><td>a</td><td>b</td></tr></table>',
    );
    expect(markdown).toContain('<th colspan="2">Both</th>');
    expect(markdown).not.toContain('onclick');
    expect(notes.keptHtml).toBe(1);
    const simple = imported('<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>');
    expect(simple.markdown).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |');
  });

  it('turn YouTube embeds into markers and audio into podcast markers', () => {
    const cases = [
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
      '[embed]https://youtu.be/dQw4w9WgXcQ[/embed]',
      '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ"} -->\n<figure><div>\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n</div></figure>\n<!-- /wp:embed -->',
      'Intro\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nOutro',
    ];
    for (const body of cases) expect(imported(body).markdown, body).toContain('[youtube:dQw4w9WgXcQ]');
    expect(imported('[audio mp3="https://example.com/ep1.mp3"][/audio]').markdown).toBe(
      '[podcast:https://example.com/ep1.mp3]',
    );
    expect(imported('<audio controls><source src="https://example.com/ep2.mp3"></audio>').markdown).toBe(
      '[podcast:https://example.com/ep2.mp3]',
    );
    const other = imported('<iframe src="https://player.vimeo.com/video/1"></iframe>');
    expect(other.markdown).toBe('');
    expect(other.notes.droppedFrames).toBe(1);
  });

  it('keep the caption of an image block or card, and the language of a code block', () => {
    const { markdown, html } = imported(
      '<figure class="wp-block-image"><img src="https://example.com/a.jpg" alt="A cat"><figcaption>A <em>sleepy</em> "cat"</figcaption></figure>\n<pre class="wp-block-code"><code class="language-js">let a = 1;</code></pre>',
    );
    expect(markdown).toContain('![A cat](https://example.com/a.jpg "A sleepy \\"cat\\"")');
    expect(html).toContain('<figcaption>A sleepy "cat"</figcaption>');
    expect(html).toContain('<span class="hljs-keyword">let</span>');
  });

  it('keep unknown shortcodes as text and name them', () => {
    const { markdown, html, notes } = imported('<p>Before [gallery ids="1,2"] after [contact-form]</p>');
    expect([...notes.shortcodes]).toEqual(['gallery', 'contact-form']);
    expect(html).toContain('[gallery ids="1,2"]');
    expect(markdown).toContain('\\[gallery');
  });

  it('make paragraphs of a classic body and strip block-editor comments', () => {
    expect(imported('One line\nnext line\n\nSecond paragraph').markdown).toBe(
      'One line  \nnext line\n\nSecond paragraph',
    );
    expect(imported('<!-- wp:paragraph -->\n<p>Hi</p>\n<!-- /wp:paragraph -->').markdown).toBe('Hi');
  });
});

describe('htmlToText', () => {
  it('decodes entities and drops markup', () => {
    expect(htmlToText('Fish &amp; <em>chips</em> &#8220;ok&#8221;')).toBe('Fish & chips “ok”');
  });
});

describe('imported footnotes', () => {
  it("bring WordPress's footnotes block as footnotes with back-links, on the site and in mails", () => {
    // As WordPress 6.3+ exports it: markers in the body, the notes in the post's footnotes meta.
    const body =
      '<!-- wp:paragraph --><p>Claim one<sup data-fn="a1b2" class="fn"><a href="#a1b2" id="a1b2-link">1</a></sup> and two<sup data-fn="c3d4" class="fn"><a href="#c3d4" id="c3d4-link">2</a></sup>.</p><!-- /wp:paragraph --><!-- wp:footnotes /-->';
    const notes = emptyNotes();
    const markdown = htmlToMarkdown(body, notes, [
      { id: 'c3d4', html: 'Second, with <em>emphasis</em>.' },
      { id: 'a1b2', html: 'First <a href="https://example.com/source">source</a>.' },
      { id: 'e5f6', html: 'Never referred to.' },
    ]);
    expect(markdown).toBe(
      [
        'Claim one[^1] and two[^2].',
        '',
        '[^1]: First [source](https://example.com/source).',
        '[^2]: Second, with *emphasis*.',
      ].join('\n'),
    );
    const html = renderMarkdown(markdown);
    expect(html).toContain('<a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref');
    expect(html).toMatch(
      /<li id="user-content-fn-1">\s*<p>First <a href="https:\/\/example.com\/source">source<\/a>\. <a href="#user-content-fnref-1" data-footnote-backref/,
    );
    // The mail's links open the post at the note; its text part reads [1] and keeps the notes.
    const postUrl = 'https://blog.example/post/claims';
    expect(mailBody(html, postUrl, SHOP)).toContain(`href="${postUrl}#user-content-fn-1"`);
    const text = plainText(html, postUrl, SHOP);
    expect(text).toContain('Claim one[1] and two[2].');
    expect(text).toContain('First source.');
    expect(text).not.toContain('↩');
  });
});

describe('imported cards', () => {
  it('turn a Ghost bookmark card into a quoted link card, on the site and in mails', () => {
    // Ghost 5's bookmark card markup, as its exports carry it in `html`.
    const { markdown, html } = imported(
      '<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="https://ghost.org/"><div class="kg-bookmark-content"><div class="kg-bookmark-title">Ghost: The Creator Economy Platform</div><div class="kg-bookmark-description">The world’s most popular modern publishing platform [for] creating a new media platform.</div><div class="kg-bookmark-metadata"><img class="kg-bookmark-icon" src="https://ghost.org/favicon.png" alt=""><span class="kg-bookmark-author">Ghost</span><span class="kg-bookmark-publisher">Ghost Foundation</span></div></div><div class="kg-bookmark-thumbnail"><img src="https://ghost.org/og.png" alt=""></div></a></figure>',
    );
    expect(markdown).toBe(
      [
        '> **[Ghost: The Creator Economy Platform](https://ghost.org/)**  ',
        '> The world’s most popular modern publishing platform \\[for\\] creating a new media platform.  ',
        '> Ghost Foundation · Ghost',
      ].join('\n'),
    );
    expect(html).toContain(
      '<blockquote>\n<p><strong><a href="https://ghost.org/">Ghost: The Creator Economy Platform</a></strong><br>',
    );
    expect(html).not.toContain('](');
    const postUrl = 'https://blog.example/post/x';
    expect(plainText(html, postUrl, SHOP)).toContain('Ghost: The Creator Economy Platform');
    expect(mailBody(html, postUrl, SHOP)).toContain('href="https://ghost.org/"');
  });
});
