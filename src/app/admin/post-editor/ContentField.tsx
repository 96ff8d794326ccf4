import { type ClipboardEvent, type KeyboardEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { readingMinutes, wordCount } from '../../../blog/reading.ts';
import { bold, type Edit, image, insert, italic, link } from '../markdown-toolbar.ts';
import { Notice } from '../Notice.tsx';
import type { RichEditorHandle } from '../rich-editor/RichEditor.tsx';
import { FieldError } from '../TextField.tsx';
import { useImageUpload } from '../upload.ts';
import { type Ask, QUESTIONS, useAskDialog } from './AskDialog.tsx';
import { MarkdownToolbar, type ProductChoice } from './MarkdownToolbar.tsx';
import { PostPreview } from './PostPreview.tsx';

// Its own chunk: loaded by the admin's editor once the page is live, never by public pages.
const RichEditor = lazy(() => import('../rich-editor/RichEditor.tsx'));

/** Where a writer's choice of the Markdown textarea is remembered, in this browser. */
const EDITOR_KEY = 'penstand:editor';

/** The post's text: the Markdown textarea with its toolbar, image upload, word count and preview. */
export function ContentField({
  initial,
  error,
  products,
  onChange,
}: {
  initial: string;
  error?: string;
  products: ProductChoice[];
  onChange: () => void;
}) {
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const richRef = useRef<RichEditorHandle>(null);
  const [content, setContent] = useState(initial);
  // The Markdown textarea until the page is live (without JavaScript it is the editor), then rich
  // text unless the writer chose Markdown.
  const [rich, setRich] = useState(false);
  useEffect(() => setRich(localStorage.getItem(EDITOR_KEY) !== 'markdown'), []);
  const chooseMarkdown = (markdown: boolean) => {
    localStorage.setItem(EDITOR_KEY, markdown ? 'markdown' : 'rich');
    setRich(!markdown);
  };

  const apply = (edit: (text: string, start: number, end: number) => Edit) => {
    const area = contentRef.current;
    // The field's own value: an upload finishing later must not undo what was typed meanwhile.
    const text = area?.value ?? content;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const result = edit(text, start, end);
    setContent(result.text);
    onChange();
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(result.selectionStart, result.selectionEnd);
    });
  };
  const insertSnippet = (snippet: string, block = false) =>
    apply((t, s, e) => insert(t, s, e, snippet, block));
  // The selection when the dialog asked, put back when it closes (Chrome gives the focus back to
  // the textarea with the caret at its start): the answer goes where the writer was.
  const askedAt = useRef<[number, number] | null>(null);
  const asking = useAskDialog(() => {
    const area = contentRef.current;
    area?.focus();
    if (area && askedAt.current) area.setSelectionRange(...askedAt.current);
  });
  const ask: Ask = (question) => {
    const area = contentRef.current;
    askedAt.current = area ? [area.selectionStart, area.selectionEnd] : null;
    return asking.ask(question);
  };

  // Uploaded images go into the content at the cursor: a card in the rich editor, else Markdown.
  const contentUpload = useImageUpload((url, file) => {
    const alt = file.name.replace(/\.[^.]+$/, '');
    if (richRef.current) richRef.current.insertImage(url, alt);
    else insertSnippet(image(url, alt), true);
  });

  // Ctrl (or Cmd) + B, I, K in the content.
  const onContentKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key === 'b' || key === 'i') {
      event.preventDefault();
      apply(key === 'b' ? bold : italic);
    } else if (key === 'k') {
      event.preventDefault();
      void ask(QUESTIONS.link).then((url) => {
        if (url !== null) apply((t, s, e) => link(t, s, e, url));
      });
    }
  };
  const onContentPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    void contentUpload.upload(images);
  };

  return (
    <div className="field">
      <div className="editor-mode">
        <label htmlFor="content">Content</label>
        <button
          type="button"
          className="button button-small button-secondary"
          aria-pressed={!rich}
          onClick={() => chooseMarkdown(rich)}
        >
          Markdown
        </button>
      </div>
      {rich ? (
        <Suspense fallback={<p className="muted">Loading the editor…</p>}>
          <RichEditor
            markdown={content}
            onMarkdown={(markdown) => {
              setContent(markdown);
              onChange();
            }}
            products={products}
            upload={(files) => void contentUpload.upload(files)}
            pickImage={() => document.getElementById('content-image')?.click()}
            handle={richRef}
          />
        </Suspense>
      ) : (
        <MarkdownToolbar apply={apply} insertSnippet={insertSnippet} products={products} ask={ask} />
      )}
      <textarea
        hidden={rich}
        id="content"
        name="content"
        ref={contentRef}
        rows={12}
        required
        value={content}
        aria-invalid={error ? true : undefined}
        aria-describedby={['content-hint', error ? 'content-error' : undefined].filter(Boolean).join(' ')}
        onChange={(e) => setContent(e.target.value)}
        onKeyDown={onContentKey}
        onPaste={onContentPaste}
        {...contentUpload.dropTarget}
      />
      <p className="muted editor-stats">
        {wordCount(content).toLocaleString('en-US')} words · {readingMinutes(content)} min read
      </p>
      <p id="content-hint" className="muted" hidden={rich}>
        Markdown. Drop or paste an image here to upload it. Ctrl (⌘ on a Mac) + B bold, I italic, K link, S
        save.
      </p>
      <FieldError id="content-error" message={error} />
      <div className="editor-upload">
        <label htmlFor="content-image">Upload image into the content</label>
        <input id="content-image" multiple {...contentUpload.pickerProps} />
      </div>
      <Notice result={contentUpload.notice} />
      <PostPreview content={content} />
      {asking.dialog}
    </div>
  );
}
