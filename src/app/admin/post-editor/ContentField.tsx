import { type ClipboardEvent, type KeyboardEvent, useRef, useState } from 'react';
import { readingMinutes, wordCount } from '../../../blog/reading.ts';
import { bold, type Edit, image, insert, italic, link } from '../markdown-toolbar.ts';
import { Notice } from '../Notice.tsx';
import { FieldError } from '../TextField.tsx';
import { useImageUpload } from '../upload.ts';
import { MarkdownToolbar, type ProductChoice } from './MarkdownToolbar.tsx';
import { PostPreview } from './PostPreview.tsx';

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
  const [content, setContent] = useState(initial);

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

  // Uploaded images go into the content as Markdown at the cursor.
  const contentUpload = useImageUpload((url, file) =>
    insertSnippet(image(url, file.name.replace(/\.[^.]+$/, '')), true),
  );

  // Ctrl (or Cmd) + B, I, K in the content.
  const onContentKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    if (key === 'b' || key === 'i') {
      event.preventDefault();
      apply(key === 'b' ? bold : italic);
    } else if (key === 'k') {
      event.preventDefault();
      const url = window.prompt('Link URL')?.trim();
      if (url && /^(https?:\/\/|\/|mailto:)/i.test(url)) apply((t, s, e) => link(t, s, e, url));
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
      <label htmlFor="content">Content</label>
      <MarkdownToolbar apply={apply} insertSnippet={insertSnippet} products={products} />
      <textarea
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
      <p id="content-hint" className="muted">
        Markdown. Drop or paste an image here to upload it. Ctrl (⌘ on a Mac) + B bold, I italic, K link, S
        save.
      </p>
      <FieldError id="content-error" message={error} />
      <div className="editor-upload">
        <label htmlFor="content-image">Upload image into the content</label>
        <input id="content-image" {...contentUpload.pickerProps} />
      </div>
      <Notice result={contentUpload.notice} />
      <PostPreview content={content} />
    </div>
  );
}
