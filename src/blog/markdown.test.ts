import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { XSS_CORPUS } from '../../tests/support/xss-corpus.ts';
import { BODY_IMAGE_SIZES, extractHeadings, renderMarkdown } from './markdown.ts';
import { mailBody } from './newsletter-delivery.ts';

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

  it('gives an upload in the body its size, and its narrower WebP variants in a srcset with sizes', () => {
    const wide = 'a'.repeat(32);
    const small = 'b'.repeat(32);
    const sizes = new Map([
      [`${wide}.jpg`, { width: 2000, height: 1000 }],
      [`${small}.png`, { width: 500, height: 400 }],
    ]);
    const html = renderMarkdown(
      `Text.\n\n![A lake](/uploads/${wide}.jpg) and ![A chart](/uploads/${small}.png) and ![Elsewhere](/uploads/${'c'.repeat(32)}.gif)`,
      sizes,
    );
    expect(html).toContain(
      `<img src="/uploads/${wide}.jpg" alt="A lake" loading="lazy" decoding="async" width="2000" height="1000" srcset="/uploads/${wide}-w640.webp 640w, /uploads/${wide}-w1280.webp 1280w, /uploads/${wide}.jpg 2000w" sizes="${BODY_IMAGE_SIZES}">`,
    );
    // Narrower than every variant: its size, and no srcset.
    expect(html).toContain(
      `<img src="/uploads/${small}.png" alt="A chart" loading="lazy" decoding="async" width="500" height="400">`,
    );
    // An upload of unknown size (stored before sizes were recorded) is left as written.
    expect(html).toContain(
      `<img src="/uploads/${'c'.repeat(32)}.gif" alt="Elsewhere" loading="lazy" decoding="async">`,
    );
  });
});

describe('image widths', () => {
  const name = 'd'.repeat(32);
  const sizes = new Map([[`${name}.jpg`, { width: 2000, height: 1000 }]]);
  const srcset = `/uploads/${name}-w640.webp 640w, /uploads/${name}-w1280.webp 1280w, /uploads/${name}.jpg 2000w`;

  it('gives a #wide or #full image its figure class and matching sizes, the fragment gone from the page and mails', () => {
    const html = renderMarkdown(
      `![Wide](/uploads/${name}.jpg#wide "Across")\n\n![Full](/uploads/${name}.jpg#full)\n\n![Normal](/uploads/${name}.jpg)`,
      sizes,
    );
    expect(html).toContain(
      `<figure class="figure-wide"><a href="/uploads/${name}.jpg"><img src="/uploads/${name}.jpg" alt="Wide" loading="lazy" decoding="async" width="2000" height="1000" srcset="${srcset}" sizes="(max-width: 66rem) calc(100vw - 2rem), 64rem"></a><figcaption>Across</figcaption></figure>`,
    );
    expect(html).toContain(
      `<figure class="figure-full"><a href="/uploads/${name}.jpg"><img src="/uploads/${name}.jpg" alt="Full"`,
    );
    expect(html).toContain('sizes="100vw"');
    // An image without a width renders as it always did.
    expect(html).toContain(
      `<figure><a href="/uploads/${name}.jpg"><img src="/uploads/${name}.jpg" alt="Normal" loading="lazy" decoding="async" width="2000" height="1000" srcset="${srcset}" sizes="${BODY_IMAGE_SIZES}"></a></figure>`,
    );
    expect(html).not.toContain('#wide');
    const mail = mailBody(html, 'https://blog.example/post/x', {
      products: new Map(),
      currency: 'usd',
      publicUrl: 'https://blog.example',
    });
    expect(mail).toContain(
      `<img style="max-width:100%;height:auto" src="https://blog.example/uploads/${name}.jpg" alt="Full"`,
    );
    expect(mail).not.toMatch(/#(wide|full)/);
  });

  it('leaves any other fragment, and an image that is not alone on its line, as written', () => {
    expect(renderMarkdown('![A](https://example.com/a.png#top)')).toContain(
      'src="https://example.com/a.png#top"',
    );
    expect(renderMarkdown('Text ![A](https://example.com/a.png#wide)')).toContain(
      'src="https://example.com/a.png#wide"',
    );
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

describe('code blocks', () => {
  it('highlights fenced code in a known language when rendered, escaping its text', () => {
    const html = renderMarkdown('```ts\nconst tag: string = "<b>"; // done\n```');
    expect(html).toContain(
      '<pre tabindex="0"><code class="language-ts"><span class="hljs-keyword">const</span>',
    );
    expect(html).toContain('<span class="hljs-string">"&#x3C;b>"</span>');
    expect(html).toContain('<span class="hljs-comment">// done</span>');
    expect(html).not.toContain('<b>');
  });

  it('leaves code without a language, or in one it does not know, as plain text', () => {
    expect(renderMarkdown('```\nconst a = 1;\n```')).toBe(
      '<pre tabindex="0"><code>const a = 1;\n</code></pre>',
    );
    expect(renderMarkdown('```klingon\nqaStaHvIS\n```')).toBe(
      '<pre tabindex="0"><code class="language-klingon">qaStaHvIS\n</code></pre>',
    );
  });

  it('keeps every payload of the XSS corpus inert inside highlighted code', () => {
    for (const payload of XSS_CORPUS) {
      for (const language of ['html', 'js', 'markdown']) {
        const html = renderMarkdown(`\`\`\`${language}\n${payload}\n\`\`\``);
        expect(html, payload).not.toMatch(/<(script|img|svg|iframe|a|template|style)\b/i);
      }
    }
  });
});

/**
 * What in the HTML as a browser parses it could run: script elements, event handler attributes,
 * javascript: addresses. Escaped text that shows a payload does not count.
 */
function runnable(html: string): string[] {
  const found: string[] = [];
  const visit = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'script') found.push('script');
      for (const [name, value] of Object.entries(child.properties)) {
        if (/^on/i.test(name)) found.push(name);
        if (/^\s*javascript:/i.test(String(value))) found.push(`${name}=${value}`);
      }
      visit(child);
    }
  };
  visit(unified().use(rehypeParse, { fragment: true }).parse(html));
  return found;
}

describe('figures', () => {
  it('makes an image on its own line a figure captioned by its title, linked to the original', () => {
    const html = renderMarkdown('![A dandelion](/uploads/seed.jpg "Seeds at dusk")');
    expect(html).toBe(
      '<figure><a href="/uploads/seed.jpg"><img src="/uploads/seed.jpg" alt="A dandelion" loading="lazy" decoding="async"></a><figcaption>Seeds at dusk</figcaption></figure>',
    );
  });

  it('takes an emphasised line right under the image as its caption, with its links', () => {
    const html = renderMarkdown('![](/demo/a.webp)\n*Photo by [Ann](https://example.com)*');
    expect(html).toBe(
      '<figure><a href="/demo/a.webp" aria-label="Open the image full size"><img src="/demo/a.webp" alt="" loading="lazy" decoding="async"></a><figcaption>Photo by <a href="https://example.com">Ann</a></figcaption></figure>',
    );
  });

  it('keeps the width and height of an HTML image, and an image that already links somewhere', () => {
    expect(renderMarkdown('<img src="/demo/a.webp" alt="A" width="1200" height="800">')).toBe(
      '<figure><a href="/demo/a.webp"><img src="/demo/a.webp" alt="A" width="1200" height="800" loading="lazy" decoding="async"></a></figure>',
    );
    expect(renderMarkdown('[![Shop](/demo/a.webp)](https://example.com/shop)')).toBe(
      '<figure><a href="https://example.com/shop"><img src="/demo/a.webp" alt="Shop" loading="lazy" decoding="async"></a></figure>',
    );
  });

  it('leaves images inside a sentence inline', () => {
    expect(renderMarkdown('An icon ![i](/demo/i.svg) here')).toBe(
      '<p>An icon <img src="/demo/i.svg" alt="i" loading="lazy" decoding="async"> here</p>',
    );
  });

  it('keeps the XSS corpus inert in captions and image addresses', () => {
    for (const payload of XSS_CORPUS) {
      for (const markdown of [
        `![x](/demo/a.webp "${payload.replaceAll('"', '\\"')}")`,
        `![x](/demo/a.webp)\n*${payload}*`,
        `![${payload}](${payload})`,
      ]) {
        expect(runnable(renderMarkdown(markdown)), markdown).toEqual([]);
      }
    }
  });
});
