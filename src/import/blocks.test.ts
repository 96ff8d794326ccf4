import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../blog/markdown.ts';
import { emptyNotes, htmlToMarkdown } from './content.ts';

/**
 * Every block of WordPress 6's core library and every Ghost card, as their editors save them in
 * an export, with the Markdown each becomes (docs/writers-guide.md: Block by block). Dynamic
 * blocks (latest posts, archives, search…) are saved as a comment alone and bring nothing.
 */
const BLOCKS: [name: string, html: string, markdown: string][] = [
  [
    'wp paragraph',
    '<!-- wp:paragraph --><p>Hello <strong>bold</strong> <em>it</em></p><!-- /wp:paragraph -->',
    'Hello **bold** *it*',
  ],
  [
    'wp heading',
    '<!-- wp:heading --><h2 class="wp-block-heading">Title</h2><!-- /wp:heading -->',
    '## Title',
  ],
  [
    'wp list',
    '<!-- wp:list --><ul class="wp-block-list"><li>One</li><li>Two</li></ul><!-- /wp:list -->',
    '-   One\n-   Two',
  ],
  [
    'wp quote',
    '<!-- wp:quote --><blockquote class="wp-block-quote"><p>Words</p><cite>Someone</cite></blockquote><!-- /wp:quote -->',
    '> Words\n> \n> Someone',
  ],
  [
    'wp pullquote',
    '<!-- wp:pullquote --><figure class="wp-block-pullquote"><blockquote><p>Pulled</p><cite>Who</cite></blockquote></figure><!-- /wp:pullquote -->',
    '> Pulled\n> \n> Who',
  ],
  [
    'wp image',
    '<!-- wp:image --><figure class="wp-block-image"><img src="https://x.example/a.jpg" alt="A"/><figcaption class="wp-element-caption">Cap</figcaption></figure><!-- /wp:image -->',
    '![A](https://x.example/a.jpg "Cap")',
  ],
  [
    'wp gallery',
    '<!-- wp:gallery --><figure class="wp-block-gallery has-nested-images columns-default"><figure class="wp-block-image"><img src="https://x.example/1.jpg" alt=""/></figure><figure class="wp-block-image"><img src="https://x.example/2.jpg" alt=""/></figure></figure><!-- /wp:gallery -->',
    '<figure><figure><img src="https://x.example/1.jpg" alt=""></figure><figure><img src="https://x.example/2.jpg" alt=""></figure></figure>',
  ],
  [
    'wp audio',
    '<!-- wp:audio --><figure class="wp-block-audio"><audio controls src="https://x.example/a.mp3"></audio></figure><!-- /wp:audio -->',
    '[podcast:https://x.example/a.mp3]',
  ],
  [
    'wp video',
    '<!-- wp:video --><figure class="wp-block-video"><video controls src="https://x.example/v.mp4"></video></figure><!-- /wp:video -->',
    '[Video](https://x.example/v.mp4)',
  ],
  [
    'wp file',
    '<!-- wp:file --><div class="wp-block-file"><a href="https://x.example/f.pdf">f.pdf</a><a href="https://x.example/f.pdf" class="wp-block-file__button wp-element-button" download>Download</a></div><!-- /wp:file -->',
    '[f.pdf](https://x.example/f.pdf)',
  ],
  [
    'wp cover',
    '<!-- wp:cover --><div class="wp-block-cover"><span aria-hidden="true" class="wp-block-cover__background has-background-dim"></span><img class="wp-block-cover__image-background" alt="" src="https://x.example/c.jpg" data-object-fit="cover"/><div class="wp-block-cover__inner-container"><p class="has-text-align-center">Cover text</p></div></div><!-- /wp:cover -->',
    '![](https://x.example/c.jpg)\n\nCover text',
  ],
  [
    'wp embed youtube',
    '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ"} --><figure class="wp-block-embed is-type-video is-provider-youtube wp-block-embed-youtube"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n</div></figure><!-- /wp:embed -->',
    '[youtube:dQw4w9WgXcQ]',
  ],
  [
    'wp embed other',
    '<!-- wp:embed {"url":"https://twitter.com/x/status/1"} --><figure class="wp-block-embed is-type-rich is-provider-twitter"><div class="wp-block-embed__wrapper">\nhttps://twitter.com/x/status/1\n</div></figure><!-- /wp:embed -->',
    'https://twitter.com/x/status/1',
  ],
  [
    'wp code',
    '<!-- wp:code --><pre class="wp-block-code"><code>let a = 1;</code></pre><!-- /wp:code -->',
    '```\nlet a = 1;\n```',
  ],
  [
    'wp preformatted',
    '<!-- wp:preformatted --><pre class="wp-block-preformatted">pre  text</pre><!-- /wp:preformatted -->',
    '```\npre  text\n```',
  ],
  [
    'wp verse',
    '<!-- wp:verse --><pre class="wp-block-verse">A verse\n  indented</pre><!-- /wp:verse -->',
    '```\nA verse\n  indented\n```',
  ],
  [
    'wp table',
    '<!-- wp:table --><figure class="wp-block-table"><table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><figcaption class="wp-element-caption">T cap</figcaption></figure><!-- /wp:table -->',
    '| A | B |\n| --- | --- |\n| 1 | 2 |\n\nT cap',
  ],
  [
    'wp buttons',
    '<!-- wp:buttons --><div class="wp-block-buttons"><!-- wp:button --><div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="https://x.example/go">Go now</a></div><!-- /wp:button --></div><!-- /wp:buttons -->',
    '[Go now](https://x.example/go)',
  ],
  [
    'wp columns',
    '<!-- wp:columns --><div class="wp-block-columns"><div class="wp-block-column"><p>Left</p></div><div class="wp-block-column"><p>Right</p></div></div><!-- /wp:columns -->',
    'Left\n\nRight',
  ],
  [
    'wp group',
    '<!-- wp:group --><div class="wp-block-group"><p>Grouped</p></div><!-- /wp:group -->',
    'Grouped',
  ],
  [
    'wp separator',
    '<!-- wp:separator --><hr class="wp-block-separator has-alpha-channel-opacity"/><!-- /wp:separator -->',
    '* * *',
  ],
  [
    'wp spacer',
    '<!-- wp:spacer --><div style="height:100px" aria-hidden="true" class="wp-block-spacer"></div><!-- /wp:spacer -->',
    '',
  ],
  ['wp more', '<p>Before</p><!--more--><p>After</p>', 'Before\n\nAfter'],
  [
    'wp details',
    '<!-- wp:details --><details class="wp-block-details"><summary>Question</summary><p>Answer</p></details><!-- /wp:details -->',
    'Question\n\nAnswer',
  ],
  [
    'wp media-text',
    '<!-- wp:media-text --><div class="wp-block-media-text is-stacked-on-mobile"><figure class="wp-block-media-text__media"><img src="https://x.example/m.jpg" alt="M"/></figure><div class="wp-block-media-text__content"><p>Beside</p></div></div><!-- /wp:media-text -->',
    '![M](https://x.example/m.jpg)\n\nBeside',
  ],
  [
    'wp html',
    '<!-- wp:html --><div class="custom"><span style="color:red">Raw</span></div><!-- /wp:html -->',
    'Raw',
  ],
  ['wp latest-posts', '<!-- wp:latest-posts /-->', ''],
  [
    'ghost button',
    '<div class="kg-card kg-button-card kg-align-center"><a href="https://x.example/b" class="kg-btn kg-btn-accent">Click me</a></div>',
    '[Click me](https://x.example/b)',
  ],
  [
    'ghost callout',
    '<div class="kg-card kg-callout-card kg-callout-card-grey"><div class="kg-callout-emoji">💡</div><div class="kg-callout-text">Note this</div></div>',
    '> 💡 Note this',
  ],
  [
    'ghost toggle',
    '<div class="kg-card kg-toggle-card" data-kg-toggle-state="close"><div class="kg-toggle-heading"><h4 class="kg-toggle-heading-text">Q?</h4><button class="kg-toggle-card-icon" aria-label="Expand toggle to read content"><svg id="Regular" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path class="cls-1" d="M23.25,7.311,12.53,18.03a.749.749,0,0,1-1.06,0L.75,7.311"></path></svg></button></div><div class="kg-toggle-content"><p>A!</p></div></div>',
    '#### Q?\n\nA!',
  ],
  [
    'ghost file',
    '<div class="kg-card kg-file-card"><a class="kg-file-card-container" href="https://x.example/f.zip" title="Download" download><div class="kg-file-card-contents"><div class="kg-file-card-title">Pack</div><div class="kg-file-card-caption">The files</div><div class="kg-file-card-metadata"><div class="kg-file-card-filename">f.zip</div><div class="kg-file-card-filesize">1 MB</div></div></div><div class="kg-file-card-icon"><svg viewBox="0 0 24 24"><path d="M1"/></svg></div></a></div>',
    '[Pack](https://x.example/f.zip) (f.zip, 1 MB): The files',
  ],
  [
    'ghost audio',
    '<div class="kg-card kg-audio-card"><img src="https://x.example/t.jpg" alt="audio-thumbnail" class="kg-audio-thumbnail"><div class="kg-audio-player-container"><audio src="https://x.example/p.mp3" preload="metadata"></audio><div class="kg-audio-title">Episode 1</div><div class="kg-audio-player"><button class="kg-audio-play-icon"><svg viewBox="0 0 24 24"><path d="M1"></path></svg></button><span class="kg-audio-current-time">0:00</span><div class="kg-audio-time">/<span class="kg-audio-duration">12:00</span></div></div></div></div>',
    '**Episode 1**\n\n[podcast:https://x.example/p.mp3]',
  ],
  [
    'ghost video',
    '<figure class="kg-card kg-video-card"><div class="kg-video-container"><video src="https://x.example/v.mp4" poster="https://img.spacergif.org/v1/1x1" width="1" height="1" playsinline preload="metadata"></video><div class="kg-video-overlay"><button class="kg-video-large-play-icon"><svg viewBox="0 0 24 24"><path d="M1"></path></svg></button></div></div></figure>',
    '[Video](https://x.example/v.mp4)',
  ],
  [
    'ghost product',
    '<div class="kg-card kg-product-card"><div class="kg-product-card-container"><img src="https://x.example/p.jpg" class="kg-product-card-image"><div class="kg-product-card-title-container"><h4 class="kg-product-card-title">Widget</h4></div><div class="kg-product-card-description"><p>A fine widget</p></div><a href="https://x.example/buy" class="kg-product-card-button kg-product-card-btn-accent"><span>Buy</span></a></div></div>',
    '![](https://x.example/p.jpg)\n\n#### Widget\n\nA fine widget\n\n[Buy](https://x.example/buy)',
  ],
  [
    'ghost header',
    '<div class="kg-card kg-header-card kg-width-full kg-size-small kg-style-dark"><h2 class="kg-header-card-header">Big header</h2><h3 class="kg-header-card-subheader">Sub</h3><a href="https://x.example/h" class="kg-header-card-button">Go</a></div>',
    '## Big header\n\n### Sub\n\n[Go](https://x.example/h)',
  ],
  [
    'ghost signup',
    '<div class="kg-card kg-signup-card"><div class="kg-signup-card-content"><h2 class="kg-signup-card-heading">Sign up</h2><form class="kg-signup-card-form" data-members-form="signup"><input class="kg-signup-card-input" type="email" required><button class="kg-signup-card-button" type="submit"><span class="kg-signup-card-button-default">Subscribe</span></button></form></div></div>',
    '',
  ],
  [
    'ghost embed',
    '<figure class="kg-card kg-embed-card"><iframe width="200" height="113" src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" frameborder="0"></iframe></figure>',
    '[youtube:dQw4w9WgXcQ]',
  ],
  [
    'ghost gallery',
    '<figure class="kg-card kg-gallery-card kg-width-wide"><div class="kg-gallery-container"><div class="kg-gallery-row"><div class="kg-gallery-image"><img src="https://x.example/g1.jpg" width="600" height="400"></div><div class="kg-gallery-image"><img src="https://x.example/g2.jpg" width="600" height="400"></div></div></div></figure>',
    '<figure><div class=""><div class=""><div class=""><img src="https://x.example/g1.jpg" width="600" height="400"></div><div class=""><img src="https://x.example/g2.jpg" width="600" height="400"></div></div></div></figure>',
  ],
  ['ghost codeblock', '<pre><code class="language-js">const x = 1;</code></pre>', '```js\nconst x = 1;\n```'],
  ['ghost divider', '<hr>', '* * *'],
  ['ghost paywall', '<p>Free</p><!--members-only--><p>Paid</p>', 'Free\n\nPaid'],
];

describe('every block and card of an import', () => {
  it.each(BLOCKS)('%s', (_name, html, markdown) => {
    const converted = htmlToMarkdown(html, emptyNotes());
    expect(converted).toBe(markdown);
    // Nothing of the old editor's chrome reaches readers: no link text broken over lines, no SVG.
    const rendered = renderMarkdown(converted);
    expect(rendered).not.toMatch(/\[\s*\n|<svg|<button|<form|<input/);
  });
});
