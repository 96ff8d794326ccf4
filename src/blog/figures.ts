import type { Element, ElementContent, Root, RootContent } from 'hast';

const isElement = (node: RootContent | ElementContent | undefined, tagName: string): node is Element =>
  node?.type === 'element' && node.tagName === tagName;

/** What counts in a paragraph: not the whitespace and line breaks between an image and its caption. */
function significant(children: ElementContent[]): ElementContent[] {
  return children.filter(
    (c) => !(c.type === 'text' && !c.value.trim()) && !(c.type === 'element' && c.tagName === 'br'),
  );
}

/** The image of a paragraph that holds only it (maybe linked), and an emphasised line under it. */
function standaloneImage(paragraph: Element): { image: Element; link?: Element; caption?: Element } | null {
  const [first, second, ...rest] = significant(paragraph.children);
  if (rest.length || (second && !isElement(second, 'em'))) return null;
  const caption = second as Element | undefined;
  if (first?.type !== 'element') return null;
  if (first.tagName === 'img') return { image: first, caption };
  const inner = first.tagName === 'a' ? significant(first.children) : [];
  return inner.length === 1 && isElement(inner[0], 'img') ? { image: inner[0], link: first, caption } : null;
}

/**
 * An image card's width, written as a fragment of its address (`![Alt](/uploads/a.webp#wide)`):
 * it survives every Markdown tool and old images, without one, stay as they were (ADR 021).
 */
export const IMAGE_WIDTHS = ['normal', 'wide', 'full'] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
const WIDTH_FRAGMENT = /#(wide|full)$/;

/** The address without its width fragment, and the width it asks for. */
export function splitImageWidth(src: string): { src: string; width: ImageWidth } {
  const match = WIDTH_FRAGMENT.exec(src);
  return match ? { src: src.slice(0, match.index), width: match[1] as ImageWidth } : { src, width: 'normal' };
}

function figure(image: Element, link: Element | undefined, caption: ElementContent[]): Element {
  const { src, width } = splitImageWidth(
    typeof image.properties.src === 'string' ? image.properties.src : '',
  );
  if (src) image.properties.src = src;
  const alt = typeof image.properties.alt === 'string' ? image.properties.alt : '';
  // Opens the original, full size; an image without alt text still gives its link a name.
  const opened: Element =
    link ??
    (src
      ? {
          type: 'element',
          tagName: 'a',
          properties: { href: src, ...(alt ? {} : { ariaLabel: 'Open the image full size' }) },
          children: [image],
        }
      : image);
  const children: ElementContent[] = [opened];
  if (caption.length)
    children.push({ type: 'element', tagName: 'figcaption', properties: {}, children: caption });
  const properties = width === 'normal' ? {} : { className: [`figure-${width}`] };
  return { type: 'element', tagName: 'figure', properties, children };
}

/**
 * An image on its own line becomes a <figure> whose image links to the original. Its caption is
 * the Markdown title (`![alt](src "Caption")`) or an emphasised line right under it
 * (`*Caption*`); a `#wide` or `#full` address gives the figure that class. Runs after the
 * sanitizer, on what it let through: it adds only the figure, its class, the caption and a link
 * to the image's own (already checked) address.
 */
export function rehypeFigures() {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      node.children = node.children.map((child) => {
        if (child.type !== 'element') return child;
        // A raw <img> on its own line is an HTML block: no paragraph around it.
        const found =
          child.tagName === 'p'
            ? standaloneImage(child)
            : child.tagName === 'img' && node.type === 'root'
              ? { image: child }
              : null;
        if (!found) {
          visit(child);
          return child;
        }
        const { image, link, caption } = found;
        const title = typeof image.properties.title === 'string' ? image.properties.title.trim() : '';
        if (!caption && title) image.properties.title = undefined;
        return figure(image, link, caption?.children ?? (title ? [{ type: 'text', value: title }] : []));
      }) as typeof node.children;
    };
    visit(tree);
  };
}
