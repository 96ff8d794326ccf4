import type { Element, ElementContent, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { hljs } from './highlight-languages.ts';

const fragment = unified().use(rehypeParse, { fragment: true });

/** A fenced block's language, from the `language-…` class Markdown gives its <code>. */
function languageOf(code: Element): string | null {
  const classes = code.properties.className;
  const name = Array.isArray(classes)
    ? classes.map(String).find((c) => c.startsWith('language-'))
    : undefined;
  return name ? name.slice('language-'.length) : null;
}

function text(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  return node.type === 'element' ? node.children.map(text).join('') : '';
}

/**
 * Highlights fenced code whose language is known, once, when the post is saved: readers get
 * coloured <span class="hljs-…"> and no script. Runs after the sanitizer: its input is the
 * block's plain text and highlight.js escapes it, so the spans are the only markup it adds.
 * Every code block is focusable too: a long line scrolls it sideways, and keyboards must reach that.
 */
export function rehypeCodeBlocks() {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        if (child.tagName === 'pre') child.properties.tabIndex = 0;
        const code = child.tagName === 'pre' ? child.children.find((c) => c.type === 'element') : undefined;
        const language = code?.tagName === 'code' ? languageOf(code) : null;
        if (code && language && hljs.getLanguage(language)) {
          const { value } = hljs.highlight(code.children.map(text).join(''), {
            language,
            ignoreIllegals: true,
          });
          code.children = fragment.parse(value).children as ElementContent[];
          continue;
        }
        visit(child);
      }
    };
    visit(tree);
  };
}
