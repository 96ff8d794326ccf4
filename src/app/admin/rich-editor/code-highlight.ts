import { Extension } from '@tiptap/core';
import type { Node as DocNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { hljs } from '../../../blog/highlight-languages.ts';

/** Each code block's text with the classes highlight.js gives it on the page (src/blog/highlight.ts). */
function highlights(doc: DocNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'codeBlock') return true;
    const language = node.attrs.language;
    if (!language || !hljs.getLanguage(language)) return false;
    const { value } = hljs.highlight(node.textContent, { language, ignoreIllegals: true });
    // An inert document (never shown): highlight.js escapes the text, the spans are its own.
    const body = new DOMParser().parseFromString(`<body>${value}`, 'text/html').body;
    let at = pos + 1;
    const walk = (parent: Element, classes: string[]) => {
      for (const child of parent.childNodes) {
        if (child instanceof Element) walk(child, [...classes, ...child.classList]);
        else if (child.nodeType === Node.TEXT_NODE) {
          const length = child.textContent?.length ?? 0;
          if (classes.length && length)
            decorations.push(Decoration.inline(at, at + length, { class: classes.join(' ') }));
          at += length;
        }
      }
    };
    walk(body, []);
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

/** Code blocks coloured in the editor as readers will see them. */
export const CodeHighlight = Extension.create({
  name: 'codeHighlight',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('codeHighlight'),
        state: {
          init: (_, { doc }) => highlights(doc),
          apply: (tr, set) => (tr.docChanged ? highlights(tr.doc) : set),
        },
        props: {
          decorations(state) {
            return this.getState(state);
          },
        },
      }),
    ];
  },
});
