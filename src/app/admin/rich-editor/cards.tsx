import { type NodeViewProps, NodeViewWrapper } from '@tiptap/react';
import { createContext, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react';
import { type Bookmark, bookmarkSchema } from '../../../blog/bookmark-schema.ts';
import { IMAGE_WIDTHS, type ImageWidth } from '../../../blog/figures.ts';
import type { ProductChoice } from '../post-editor/MarkdownToolbar.tsx';
import type { GalleryImage } from './markdown-doc.ts';

/** The shop's products, for the product card's name. */
export const ProductsContext = createContext<ProductChoice[]>([]);

/** Opens the image picker; what is uploaded goes to append (a gallery) instead of a new image card. */
export const GalleryPickerContext = createContext<(append: (image: GalleryImage) => void) => void>(() => {});

const KIND_LABELS: Record<string, string> = {
  youtube: 'YouTube video',
  podcast: 'Podcast episode',
  product: 'Product card',
};

/** A card's frame: what it is, its fields, and a button to remove it. */
function Card({
  label,
  selected,
  remove,
  className,
  children,
}: {
  label: string;
  selected: boolean;
  remove: () => void;
  className?: string;
  children: ReactNode;
}) {
  const classes = ['editor-card', selected ? 'is-selected' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <NodeViewWrapper className={classes} contentEditable={false}>
      <div className="editor-card-head">
        <span className="editor-card-label">{label}</span>
        <button type="button" className="button button-small button-secondary" onClick={remove}>
          Remove {label.toLowerCase()}
        </button>
      </div>
      {children}
    </NodeViewWrapper>
  );
}

/** A card's one text field, labelled for screen readers. */
function CardField({
  label,
  value,
  onChange,
  rows,
  focus,
  onEnter,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  /** Takes the focus when the card appears: a card just inserted is written in at once. */
  focus?: boolean;
  /** Enter in the field does this instead of submitting the post's form. */
  onEnter?: () => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Only when the card first appears: a later change of `focus` must not move the writer.
  const focusOnMount = useRef(focus);
  useEffect(() => {
    if (focusOnMount.current) input.current?.focus();
  }, []);
  return (
    <div className="editor-card-field">
      <label htmlFor={id}>{label}</label>
      {rows ? (
        <textarea id={id} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          ref={input}
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (!onEnter || e.key !== 'Enter') return;
            e.preventDefault();
            onEnter();
          }}
        />
      )}
    </div>
  );
}

export function MarkdownCardView({ node, updateAttributes, selected, deleteNode }: NodeViewProps) {
  const source = String(node.attrs.source);
  return (
    <Card label="Markdown card" selected={selected} remove={deleteNode}>
      <CardField
        label="Markdown or HTML, kept as written"
        rows={Math.min(12, source.split('\n').length + 1)}
        value={source}
        onChange={(value) => updateAttributes({ source: value })}
      />
    </Card>
  );
}

export function EmbedCardView({ node, updateAttributes, selected, deleteNode }: NodeViewProps) {
  const products = useContext(ProductsContext);
  const kind = String(node.attrs.kind);
  const value = String(node.attrs.value);
  const label = KIND_LABELS[kind] ?? kind;
  const product = kind === 'product' ? products.find((p) => String(p.id) === value) : undefined;
  return (
    <Card label={label} selected={selected} remove={deleteNode}>
      {kind === 'podcast' ? (
        // biome-ignore lint/a11y/useMediaCaption: episodes come with show notes in the post body, as on the page
        <audio controls preload="none" src={value} />
      ) : null}
      {kind === 'product' ? (
        <p className="editor-card-note">
          {product ? `${product.name} · ${product.price} · Stock: ${product.stock}` : `Product ${value}`}
        </p>
      ) : null}
      <CardField
        label={kind === 'youtube' ? 'Video id' : kind === 'podcast' ? 'Audio URL' : 'Product id'}
        value={value}
        onChange={(next) => updateAttributes({ value: next.trim() })}
      />
    </Card>
  );
}

const WIDTH_LABELS: Record<ImageWidth, string> = {
  normal: 'Normal',
  wide: 'Wide',
  full: 'Full width',
};

export function ImageCardView({ node, updateAttributes, selected, deleteNode }: NodeViewProps) {
  // Each card's radios are their own group (a post may hold many images).
  const name = useId();
  const width = node.attrs.width as ImageWidth;
  return (
    // The public figure's class (src/blog/figures.ts): the card leaves the text as the image will.
    <Card
      label="Image"
      selected={selected}
      remove={deleteNode}
      className={width === 'normal' ? undefined : `figure-${width}`}
    >
      <img src={String(node.attrs.src)} alt={String(node.attrs.alt)} className="editor-card-image" />
      <CardField
        label="Alt text"
        value={String(node.attrs.alt)}
        onChange={(alt) => updateAttributes({ alt })}
      />
      <CardField
        label="Caption"
        value={String(node.attrs.caption)}
        onChange={(caption) => updateAttributes({ caption })}
      />
      <fieldset className="editor-image-width">
        <legend>Width</legend>
        {IMAGE_WIDTHS.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={`image-width-${name}`}
              value={option}
              checked={width === option}
              onChange={() => updateAttributes({ width: option })}
            />{' '}
            {WIDTH_LABELS[option]}
          </label>
        ))}
      </fieldset>
    </Card>
  );
}

export function PaywallCardView({ selected, deleteNode }: NodeViewProps) {
  return (
    <Card label="Paywall" selected={selected} remove={deleteNode}>
      <p className="muted">
        Readers without access to this post see what is above, then the invitation to become a member.
      </p>
    </Card>
  );
}

export function CalloutCardView({ node, updateAttributes, selected, deleteNode }: NodeViewProps) {
  const text = String(node.attrs.text);
  return (
    <Card label="Callout" selected={selected} remove={deleteNode}>
      <div className="editor-callout">
        <CardField
          label="Emoji"
          value={String(node.attrs.emoji)}
          onChange={(emoji) => updateAttributes({ emoji: emoji.trim() })}
        />
        <CardField
          label="Callout text"
          value={text}
          focus={text === ''}
          onChange={(next) => updateAttributes({ text: next })}
        />
      </div>
    </Card>
  );
}

export function GalleryCardView({ node, editor, getPos, selected, deleteNode }: NodeViewProps) {
  const pick = useContext(GalleryPickerContext);
  const images = node.attrs.images as GalleryImage[];
  // Read from the document when called: uploads finish one by one, after this render.
  const setImages = (change: (current: GalleryImage[]) => GalleryImage[]) => {
    const pos = getPos();
    const current = pos === undefined ? null : editor.state.doc.nodeAt(pos);
    if (pos === undefined || current?.type.name !== 'galleryCard') return;
    editor.view.dispatch(editor.state.tr.setNodeAttribute(pos, 'images', change(current.attrs.images)));
  };
  const addImages = () => pick((image) => setImages((current) => [...current, image]));
  // A gallery just inserted asks for its images at once.
  const emptyAtFirst = useRef(images.length === 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the card first appears
  useEffect(() => {
    if (emptyAtFirst.current) addImages();
  }, []);
  return (
    <Card label="Gallery" selected={selected} remove={deleteNode}>
      <ul className="editor-gallery">
        {images.map((image, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an image may be in a gallery twice: its place is what tells them apart
          <li key={`${index}-${image.src}`}>
            <img src={image.src} alt={image.alt} className="editor-card-image" />
            <CardField
              label={`Alt text of image ${index + 1}`}
              value={image.alt}
              onChange={(alt) =>
                setImages((current) => current.map((each, at) => (at === index ? { ...each, alt } : each)))
              }
            />
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => setImages((current) => current.filter((_, at) => at !== index))}
            >
              Remove image {index + 1}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-small button-secondary" onClick={addImages}>
        Add images
      </button>
    </Card>
  );
}

/** Asks the server for the page's title, description and image (POST /api/admin/bookmarks). */
async function readPage(url: string): Promise<Bookmark> {
  const res = await fetch('/api/admin/bookmarks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
    credentials: 'same-origin',
  });
  const json = (await res.json().catch(() => ({}))) as Partial<Bookmark> & { message?: string };
  if (!res.ok) throw new Error(json.message || `The page could not be read (status ${res.status}).`);
  return json as Bookmark;
}

export function BookmarkCardView({ node, updateAttributes, selected, deleteNode }: NodeViewProps) {
  const [status, setStatus] = useState('');
  const [reading, setReading] = useState(false);
  const url = String(node.attrs.url);
  const image = String(node.attrs.image);
  const publisher = String(node.attrs.publisher);
  // Imported bookmarks name their publisher; the field stays while the writer empties it.
  const hasPublisher = useRef(publisher !== '');
  const read = async () => {
    const parsed = bookmarkSchema.safeParse({ url });
    if (!parsed.success) {
      setStatus(parsed.error.issues[0]?.message ?? '');
      return;
    }
    setReading(true);
    setStatus('Reading the page…');
    try {
      const page = await readPage(parsed.data.url);
      // The writer's own words stay: a page read again fills only what is still empty.
      updateAttributes({
        url: page.url,
        title: String(node.attrs.title) || page.title,
        description: String(node.attrs.description) || page.description,
        image: page.image,
      });
      setStatus(page.title ? `Read: ${page.title}` : 'Read; the page gives no title.');
    } catch (error) {
      setStatus((error as Error).message);
    } finally {
      setReading(false);
    }
  };
  return (
    <Card label="Bookmark" selected={selected} remove={deleteNode}>
      <div className="editor-bookmark">
        {image ? <img src={image} alt="" className="editor-bookmark-image" /> : null}
        <CardField
          label="Page address"
          value={url}
          focus={url === ''}
          onChange={(next) => updateAttributes({ url: next.trim() })}
          onEnter={() => void read()}
        />
        <button
          type="button"
          className="button button-small button-secondary"
          onClick={() => void read()}
          disabled={reading}
        >
          Read the page
        </button>
        <p className="editor-card-note" role="status">
          {status}
        </p>
        <CardField
          label="Bookmark title"
          value={String(node.attrs.title)}
          onChange={(title) => updateAttributes({ title })}
        />
        <CardField
          label="Bookmark description"
          value={String(node.attrs.description)}
          onChange={(description) => updateAttributes({ description })}
        />
        {hasPublisher.current ? (
          <CardField
            label="Bookmark publisher"
            value={publisher}
            onChange={(next) => updateAttributes({ publisher: next })}
          />
        ) : null}
        {image ? (
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => updateAttributes({ image: '' })}
          >
            Remove the bookmark’s image
          </button>
        ) : null}
      </div>
    </Card>
  );
}
