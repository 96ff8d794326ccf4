import type { Editor } from '@tiptap/core';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { type RefObject, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { CARD_ANSWERS } from '../../../blog/post-schema.ts';
import { TEXT_COLOURS } from '../markdown-toolbar.ts';
import { useAskDialog } from '../post-editor/AskDialog.tsx';
import type { ProductChoice } from '../post-editor/MarkdownToolbar.tsx';
import { GalleryPickerContext, ProductsContext } from './cards.tsx';
import { extensions } from './extensions.ts';
import { docToMarkdown, type GalleryImage, markdownToDoc } from './markdown-doc.ts';
import { filterItems, type SlashItem, type SlashQuery, slashItems, slashQuery } from './slash-menu.ts';

/** What the content field asks of the rich editor. */
export type RichEditorHandle = { insertImage: (src: string, alt: string) => void };

type Props = {
  markdown: string;
  onMarkdown: (markdown: string) => void;
  products: ProductChoice[];
  /** Uploads pasted or dropped images; each one comes back through insertImage. */
  upload: (files: File[]) => void;
  pickImage: () => void;
  handle: RefObject<RichEditorHandle | null>;
};

const imagesIn = (transfer: DataTransfer | null) =>
  Array.from(transfer?.files ?? []).filter((file) => file.type.startsWith('image/'));

/**
 * The link editor: the address of the link at the cursor (or for the selected text), applied with
 * Enter, removed with its button; Escape leaves it. Not a form, and a plain text field: it sits
 * inside the post's form, whose submission must not depend on it.
 */
function LinkEditor({ editor, close }: { editor: Editor; close: () => void }) {
  const [url, setUrl] = useState(() => String(editor.getAttributes('link').href ?? ''));
  const [error, setError] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const done = () => {
    close();
    editor.commands.focus();
  };
  const apply = () => {
    // An emptied address removes the link.
    const parsed = url.trim() === '' ? null : CARD_ANSWERS.link.safeParse(url);
    if (parsed && !parsed.success) {
      setError(parsed.error.issues[0]?.message ?? '');
      return;
    }
    const chain = editor.chain().focus().extendMarkRange('link');
    (parsed ? chain.setLink({ href: parsed.data }) : chain.unsetLink()).run();
    done();
  };
  return (
    <div
      className="card link-editor"
      role="dialog"
      aria-label="Link"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          done();
        }
      }}
    >
      <label htmlFor="link-url">Link URL</label>
      <input
        id="link-url"
        ref={input}
        inputMode="url"
        value={url}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'link-url-error' : undefined}
        onChange={(event) => {
          setUrl(event.target.value);
          setError('');
        }}
        onKeyDown={(event) => {
          // Enter applies the link here, not the post's form around it.
          if (event.key === 'Enter') {
            event.preventDefault();
            apply();
          }
        }}
      />
      <button type="button" className="button button-small" onClick={apply}>
        Apply
      </button>
      <button
        type="button"
        className="button button-small button-secondary"
        onClick={() => {
          editor.chain().focus().extendMarkRange('link').unsetLink().run();
          done();
        }}
      >
        Remove link
      </button>
      {error ? (
        <p id="link-url-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The rich editor: the post as readers will see it, written back to the same Markdown on every
 * change. Loaded once the post editor is live (a chunk of its own, never on public pages).
 */
export default function RichEditor({ markdown, onMarkdown, products, upload, pickImage, handle }: Props) {
  // Where uploaded images go: the gallery that asked for them, else a new image card each.
  const galleryTarget = useRef<((image: GalleryImage) => void) | null>(null);
  const uploadImages = (files: File[]) => {
    galleryTarget.current = null;
    upload(files);
  };
  const pickImages = (append: ((image: GalleryImage) => void) | null) => {
    galleryTarget.current = append;
    pickImage();
  };
  const [slash, setSlash] = useState<SlashQuery | null>(null);
  const [linking, setLinking] = useState(false);
  const [active, setActive] = useState(0);
  // Parsed once: the editor takes its content only when it is made, and the text changes on every key.
  const [initial] = useState(() => markdownToDoc(markdown));
  // A card that asks gives the focus back to the text, where the / was, once answered or cancelled:
  // the view's own focus puts the selection back too (the dialog may have given the focus back alone).
  const { ask, dialog } = useAskDialog(() => editorRef.current?.view.focus());
  const items = slashItems(products, () => pickImages(null));
  const shown = slash ? filterItems(items, slash.query) : [];
  // The editor's handlers are made once; they read the menu through this ref.
  const menu = useRef({ shown, active, slash });
  menu.current = { shown, active, slash };

  const choose = (editor: Editor, item: SlashItem) => {
    const query = menu.current.slash;
    if (query) editor.chain().focus().deleteRange({ from: query.from, to: query.to }).run();
    setSlash(null);
    item.run(editor, ask);
  };

  /**
   * The menu's keys: from the text, where the focus stays while it is open, or from the menu itself
   * (Tab reaches it, so its scrolling list is the keyboard's too). True when the key was the menu's.
   */
  const menuKey = (key: string): boolean => {
    const { shown: options, active: at, slash: open } = menu.current;
    const current = editorRef.current;
    if (!open || options.length === 0 || !current) return false;
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      const step = key === 'ArrowDown' ? 1 : -1;
      setActive((at + step + options.length) % options.length);
      return true;
    }
    if (key === 'Enter') {
      choose(current, options[Math.min(at, options.length - 1)]);
      return true;
    }
    if (key === 'Escape') {
      setSlash(null);
      current.view.focus();
      return true;
    }
    return false;
  };

  const editor = useEditor({
    extensions,
    content: initial,
    immediatelyRender: false,
    editorProps: {
      attributes: {
        class: 'prose rich-editor-text',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Content',
        'aria-describedby': 'rich-editor-hint',
      },
      handleKeyDown: (_view, event) => {
        if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
          event.preventDefault();
          setLinking(true);
          return true;
        }
        return menuKey(event.key);
      },
      handlePaste: (_view, event) => {
        const images = imagesIn(event.clipboardData);
        if (images.length === 0) return false;
        uploadImages(images);
        return true;
      },
      handleDrop: (_view, event) => {
        const images = imagesIn(event.dataTransfer);
        if (images.length === 0) return false;
        event.preventDefault();
        uploadImages(images);
        return true;
      },
    },
    onUpdate: ({ editor: changed }) => {
      onMarkdown(docToMarkdown(changed.getJSON()));
      const query = slashQuery(changed);
      setSlash(query);
      if (query?.query !== menu.current.slash?.query) setActive(0);
    },
    onSelectionUpdate: ({ editor: moved }) => setSlash(slashQuery(moved)),
  });
  const editorRef = useRef<Editor | null>(null);
  editorRef.current = editor;

  // Focus stays in the text while the menu is open: the text says which option is chosen.
  const activeId = slash && shown.length > 0 ? `slash-${shown[Math.min(active, shown.length - 1)].id}` : null;
  useEffect(() => {
    const text = editor?.view.dom;
    if (!text) return;
    if (activeId) {
      document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
      text.setAttribute('aria-controls', 'slash-menu');
      text.setAttribute('aria-activedescendant', activeId);
    } else {
      text.removeAttribute('aria-controls');
      text.removeAttribute('aria-activedescendant');
    }
  }, [editor, activeId]);

  useImperativeHandle(handle, () => ({
    insertImage: (src, alt) => {
      if (galleryTarget.current) galleryTarget.current({ src, alt });
      else editor?.chain().focus().insertContent({ type: 'imageCard', attrs: { src, alt } }).run();
    },
  }));

  const marks = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      underline: e?.isActive('underline') ?? false,
      strike: e?.isActive('strike') ?? false,
      link: e?.isActive('link') ?? false,
    }),
  });

  if (!editor) return <p className="muted">Loading the editor…</p>;
  const toggle = (name: keyof NonNullable<typeof marks>, label: string, run: () => void) => (
    <button
      type="button"
      className="button button-small button-secondary"
      aria-pressed={marks?.[name] ?? false}
      onClick={run}
    >
      {label}
    </button>
  );
  const chain = () => editor.chain().focus();
  return (
    <ProductsContext.Provider value={products}>
      <GalleryPickerContext.Provider value={pickImages}>
        <div className="editor-toolbar" role="toolbar" aria-label="Formatting">
          {toggle('bold', 'Bold', () => chain().toggleBold().run())}
          {toggle('italic', 'Italic', () => chain().toggleItalic().run())}
          {toggle('underline', 'Underline', () => chain().toggleUnderline().run())}
          {toggle('strike', 'Strike', () => chain().toggleStrike().run())}
          {toggle('link', 'Link', () => setLinking(true))}
          <label className="visually-hidden" htmlFor="rich-colour">
            Text colour
          </label>
          <select
            id="rich-colour"
            className="editor-colour"
            value=""
            onChange={(e) => {
              const value = e.target.value;
              if (value === 'inherit') chain().unsetMark('colour').run();
              else if (value) chain().setMark('colour', { value }).run();
            }}
          >
            <option value="">Colour…</option>
            {TEXT_COLOURS.map((c) => (
              <option key={c.name} value={c.value}>
                {c.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => chain().undo().run()}
          >
            Undo
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => chain().redo().run()}
          >
            Redo
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            aria-label="Insert a card"
            onClick={() =>
              editor.state.selection.$from.parent.textContent === ''
                ? chain().insertContent('/').run()
                : chain().selectTextblockEnd().splitBlock().insertContent('/').run()
            }
          >
            +
          </button>
        </div>
        {linking ? <LinkEditor editor={editor} close={() => setLinking(false)} /> : null}
        {dialog}
        <div className="rich-editor">
          <EditorContent editor={editor} />
          {slash && shown.length > 0 ? (
            <div
              className="card slash-menu"
              role="listbox"
              id="slash-menu"
              aria-label="Insert"
              tabIndex={0}
              aria-activedescendant={activeId ?? undefined}
              onKeyDown={(event) => {
                if (menuKey(event.key)) event.preventDefault();
              }}
            >
              {shown.map((item, index) => (
                <div
                  key={item.id}
                  id={`slash-${item.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  className={index === active ? 'is-active' : undefined}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(editor, item);
                  }}
                >
                  {item.label}
                </div>
              ))}
            </div>
          ) : null}
        </div>
        <p id="rich-editor-hint" className="muted">
          Type / for headings, lists, images and cards; Markdown shortcuts (## , - , 1. , &gt; , ```,
          **bold**) work as you type. Ctrl (⌘ on a Mac) + B bold, I italic, K link, Z undo, S save.
        </p>
      </GalleryPickerContext.Provider>
    </ProductsContext.Provider>
  );
}
