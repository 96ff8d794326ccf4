import {
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Form, Link, useBlocker, useFetcher, useNavigation } from 'react-router';
import type { EditablePost } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import type { PostRevision } from '../../blog/post-revisions.ts';
import { normalizeTags, POST_CATEGORIES, type PostDraft } from '../../blog/post-schema.ts';
import { readingMinutes, wordCount } from '../../blog/reading.ts';
import { slugify } from '../../blog/slug.ts';
import { extractYouTubeId } from '../../blog/youtube.ts';
import { FormErrorsAtButton, useFieldErrors, useFocusFirstError } from '../components/FormErrors.tsx';
import { type AutosaveState, type NewPostDraft, readNewPostDraft, useAutosave } from './autosave.ts';
import {
  bold,
  colour,
  type Edit,
  heading,
  image,
  insert,
  italic,
  link,
  podcastMarker,
  productMarker,
  TEXT_COLOURS,
  underline,
  youtubeMarker,
} from './markdown-toolbar.ts';
import { Notice } from './Notice.tsx';
import type { PostFormErrors } from './post-form.server.ts';
import type { EditorFields } from './post-form.ts';
import { RevisionsPanel } from './RevisionsPanel.tsx';
import { SeoFields } from './SeoFields.tsx';
import { SharePreview } from './SharePreview.tsx';
import { FieldError, TextField } from './TextField.tsx';
import { useImageUpload } from './upload.ts';

type Props = {
  post: EditablePost | null;
  /** An autosaved draft newer than the post's last save, offered on opening. */
  draft?: PostRevision | null;
  errors: PostFormErrors | null;
  /** The toolbar's product picker. */
  products: ProductChoice[];
};

type ProductChoice = { id: number; name: string; active: boolean };

/** datetime-local wants the browser's local time; the server gets the offset beside it. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A revision's fields over the post: what the editor shows after a restore. */
function withRevision(post: EditablePost, revision: PostRevision): EditablePost {
  const { settings } = revision;
  return {
    ...post,
    ...settings,
    slug: settings.slug ?? post.slug,
    title: revision.title,
    excerpt: revision.excerpt,
    content: revision.content,
  };
}

/** A new post's draft kept in this browser, as the form shows it. */
function draftFields(draft: PostDraft): EditorFields {
  return {
    ...draft,
    slug: draft.slug ?? '',
    featuredImage: draft.featuredImage ?? null,
    featuredImageFile: draft.featuredImageFile ?? null,
    youtubeVideoId: draft.youtubeVideoId ?? null,
    podcastUrl: draft.podcastUrl ?? null,
    canonicalUrl: draft.canonicalUrl ?? null,
    socialImage: draft.socialImage ?? null,
    publishAt: draft.publishAt?.toISOString() ?? null,
  };
}

function savedTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** An unsaved draft offered back on opening: restore it, or go on with what the form shows. */
function DraftOffer({
  savedAt,
  keptWhere,
  restore,
  close,
  keepLabel,
}: {
  savedAt: string;
  keptWhere: string;
  restore: () => void;
  close: () => void;
  keepLabel: string;
}) {
  return (
    <section className="card editor-draft" aria-label="Unsaved draft">
      <p>
        An unsaved draft from {savedTime(savedAt)} was kept {keptWhere}.
      </p>
      <div className="admin-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            restore();
            close();
          }}
        >
          Restore draft
        </button>
        <button type="button" className="button button-small button-secondary" onClick={close}>
          {keepLabel}
        </button>
      </div>
    </section>
  );
}

/** A formatting toolbar button: it edits the content, never submits the form. */
function ToolButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="button button-small button-secondary" onClick={onClick}>
      {children}
    </button>
  );
}

function AutosaveStatus({ state, postId }: { state: AutosaveState; postId: number | null }) {
  let text: ReactNode = null;
  if (state.kind === 'saving') text = 'Saving…';
  else if (state.kind === 'saved')
    text = `Saved ${postId ? '' : 'in this browser '}at ${savedTime(state.at)}`;
  else if (state.kind === 'retrying') text = 'Not saved — retrying';
  else if (state.kind === 'conflict' && postId) text = <ConflictHelp postId={postId} />;
  return (
    <p className="muted autosave-status" role="status">
      {text}
    </p>
  );
}

/** Both versions stay reachable: the other one in a new tab, this one in the form. */
function ConflictHelp({ postId }: { postId: number }) {
  return (
    <>
      <strong>{POST_MESSAGES.changedElsewhere}</strong>. Your text stays here;{' '}
      <a href={`/admin/posts/${postId}`} target="_blank" rel="noopener">
        open the saved version in a new tab
      </a>{' '}
      to compare.
    </>
  );
}

/** Asks before the page is left (closed, reloaded, or another admin page) with changes stored nowhere. */
function useLeavePrompt(unstored: () => boolean) {
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!unstored()) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [unstored]);
  // Not a save's own redirect: a submission is a POST, and settling it left nothing unstored.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && unstored(),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(POST_MESSAGES.leaveUnsaved)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
}

/**
 * The editor: the form, and around it what outlives a remount of the form (a restored draft or
 * revision replaces every field): autosave with its base version, and the Revisions panel.
 */
export function PostEditor({ post, draft = null, errors, products }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  // A page rendered for a refused save (without JavaScript) shows what was sent, not the stored post.
  const [shown, setShown] = useState<{ post: EditorFields | null; key: number }>({
    post: errors?.values ?? post,
    key: 0,
  });
  const [draftOffered, setDraftOffered] = useState(draft !== null);
  // Only the browser holds it: read once the page is live.
  const [newDraft, setNewDraft] = useState<NewPostDraft | null>(null);
  useEffect(() => {
    if (!post) setNewDraft(readNewPostDraft());
  }, [post]);
  const [showRevisions, setShowRevisions] = useState(false);
  const read = useCallback(() => (formRef.current ? new FormData(formRef.current) : null), []);
  const autosave = useAutosave(post?.id ?? null, post?.version ?? 1, read);
  const show = (next: EditorFields) => setShown((s) => ({ post: next, key: s.key + 1 }));
  useLeavePrompt(autosave.unstored);
  // A refused save's text is still the writer's: stored as a draft copy, and asked about on leaving.
  const { changed } = autosave;
  useEffect(() => {
    if (errors) changed();
  }, [errors, changed]);
  const current = () => {
    const form = read();
    return { title: String(form?.get('title') ?? ''), content: String(form?.get('content') ?? '') };
  };
  return (
    <div className="container admin admin-editor">
      <p>
        <Link to="/admin?tab=posts">← Back to Admin</Link>
      </p>
      <h1>{post ? 'Edit Post' : 'New Post'}</h1>
      <AutosaveStatus state={autosave.state} postId={post?.id ?? null} />
      {post && draft && draftOffered ? (
        <DraftOffer
          savedAt={draft.savedAt}
          keptWhere="when the editor closed"
          restore={() => show(withRevision(post, draft))}
          close={() => setDraftOffered(false)}
          keepLabel="Keep the saved version"
        />
      ) : null}
      {newDraft ? (
        <DraftOffer
          savedAt={newDraft.savedAt}
          keptWhere="in this browser"
          restore={() => show(draftFields(newDraft.fields))}
          close={() => setNewDraft(null)}
          keepLabel="Start a blank post"
        />
      ) : null}
      {errors?.conflict && post && autosave.state.kind !== 'conflict' ? (
        <p className="autosave-status">
          <ConflictHelp postId={post.id} />
        </p>
      ) : null}
      <EditorForm
        key={shown.key}
        post={shown.post}
        isNew={post === null}
        errors={errors}
        products={products}
        formRef={formRef}
        version={autosave.version}
        onChange={autosave.changed}
        beforeSubmit={autosave.settle}
      />
      {post ? <SharePreview postId={post.id} /> : null}
      {post ? (
        <div className="editor-revisions">
          <button
            type="button"
            className="button button-small button-secondary"
            aria-expanded={showRevisions}
            aria-controls="post-revisions"
            onClick={() => setShowRevisions((v) => !v)}
          >
            {showRevisions ? 'Hide Revisions' : 'Revisions'}
          </button>
          {showRevisions ? (
            <RevisionsPanel
              key={autosave.version}
              postId={post.id}
              version={autosave.version}
              current={current}
              onRestored={(restored) => {
                autosave.rebase(restored.version);
                show(restored);
              }}
            />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

type FormProps = {
  post: EditorFields | null;
  isNew: boolean;
  errors: PostFormErrors | null;
  products: ProductChoice[];
  formRef: RefObject<HTMLFormElement | null>;
  version: number;
  onChange: () => void;
  /** Settles autosave first; resolves once the form may be submitted with the current version. */
  beforeSubmit: () => Promise<void>;
};

function EditorForm({ post, isNew, errors, products, formRef, version, onChange, beforeSubmit }: FormProps) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  const preview = useFetcher<{ html: string }>();
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const [title, setTitle] = useState(post?.title ?? '');
  const [slug, setSlug] = useState(post?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(post ? post.slug !== slugify(post.title) : false);
  const [content, setContent] = useState(post?.content ?? '');
  const [tags, setTags] = useState<string[]>(post?.tags ?? []);
  const [tagDraft, setTagDraft] = useState('');
  const [youtube, setYoutube] = useState(post?.youtubeVideoId ?? '');
  const [excerpt, setExcerpt] = useState(post?.excerpt ?? '');
  const [featuredImage, setFeaturedImage] = useState(post?.featuredImage ?? '');
  const [featuredImageFile, setFeaturedImageFile] = useState(post?.featuredImageFile ?? '');
  const [status, setStatus] = useState(post?.status ?? 'draft');
  const [tzOffset, setTzOffset] = useState('');
  const [showPreview, setShowPreview] = useState(false);
  const { fields, onInput } = useFieldErrors(errors?.fields);
  useFocusFirstError(formRef, errors);
  // An autosave under way when Update is pressed: the save waits for the version it makes.
  const waited = useRef(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (waited.current || isNew) {
      waited.current = false;
      // Nothing is left to autosave or to ask about on leaving: this save takes it all.
      void beforeSubmit();
      return;
    }
    event.preventDefault();
    void beforeSubmit().then(() =>
      // After React has written the new base version into the hidden field.
      setTimeout(() => {
        waited.current = true;
        formRef.current?.requestSubmit();
      }, 0),
    );
  };

  useEffect(() => setTzOffset(String(new Date().getTimezoneOffset())), []);

  // Live preview: re-rendered on the server (same sanitizer) shortly after typing stops.
  const submitPreview = preview.submit;
  useEffect(() => {
    if (!showPreview) return;
    const timer = setTimeout(
      () => submitPreview({ content }, { method: 'post', action: '/admin/preview' }),
      300,
    );
    return () => clearTimeout(timer);
  }, [showPreview, content, submitPreview]);

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

  // Uploaded images go into the content as Markdown at the cursor, or become the featured image.
  const contentUpload = useImageUpload((url, file) =>
    insertSnippet(image(url, file.name.replace(/\.[^.]+$/, '')), true),
  );
  const featuredUpload = useImageUpload((url) => {
    setFeaturedImageFile(url);
    onChange();
  });

  // Ctrl (or Cmd) + B, I, K in the content; + S anywhere in the form saves.
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
  const onFormKey = (event: KeyboardEvent<HTMLFormElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  };
  const onContentPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    void contentUpload.upload(images);
  };

  const addTag = () => {
    setTags((current) => normalizeTags([...current, tagDraft]));
    setTagDraft('');
    onChange();
  };
  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      addTag();
    }
  };
  const askAndInsert = (question: string, make: (answer: string) => string | null) => {
    const answer = window.prompt(question)?.trim();
    if (!answer) return;
    const snippet = make(answer);
    if (snippet) insertSnippet(snippet, true);
  };

  const described = (name: string) => (fields[name] ? `${name}-error` : undefined);
  return (
    <>
      <Notice result={errors ? { ok: false, title: errors.title, message: errors.message } : null} />
      <Form
        method="post"
        className="admin-form"
        noValidate
        ref={formRef}
        onInput={(event) => {
          onInput(event);
          onChange();
        }}
        onSubmit={onSubmit}
        onKeyDown={onFormKey}
      >
        <input type="hidden" name="tzOffset" value={tzOffset} />
        {isNew ? null : <input type="hidden" name="baseVersion" value={version} />}
        <TextField
          name="title"
          label="Title"
          required
          value={title}
          error={fields.title}
          onChange={(e) => {
            setTitle(e.target.value);
            if (!slugTouched) setSlug(slugify(e.target.value));
          }}
        />
        <TextField
          name="slug"
          label="Slug"
          value={slug}
          hint={
            <>
              The address is /post/{slugify(slug || title) || '…'}. Old addresses keep redirecting after a
              change.
            </>
          }
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugTouched(e.target.value !== '');
          }}
        />
        <div className="field">
          <label htmlFor="content">Content</label>
          <div className="editor-toolbar" role="toolbar" aria-label="Formatting" aria-controls="content">
            <ToolButton onClick={() => apply(bold)}>Bold</ToolButton>
            <ToolButton onClick={() => apply(italic)}>Italic</ToolButton>
            <ToolButton onClick={() => apply(underline)}>Underline</ToolButton>
            {([1, 2, 3] as const).map((level) => (
              <ToolButton key={level} onClick={() => apply((t, s) => heading(t, s, level))}>
                H{level}
              </ToolButton>
            ))}
            <ToolButton onClick={() => askAndInsert('Image URL', (url) => image(url))}>Image</ToolButton>
            <label className="visually-hidden" htmlFor="text-colour">
              Text colour
            </label>
            <select
              id="text-colour"
              className="editor-colour"
              value=""
              onChange={(e) => {
                const value = e.target.value;
                if (value) apply((t, s, en) => colour(t, s, en, value));
              }}
            >
              <option value="">Colour…</option>
              {TEXT_COLOURS.map((c) => (
                <option key={c.name} value={c.value}>
                  {c.name}
                </option>
              ))}
            </select>
            <ToolButton
              onClick={() =>
                askAndInsert('YouTube link or video id', (value) => {
                  const id = extractYouTubeId(value);
                  return /^[A-Za-z0-9_-]{11}$/.test(id) ? youtubeMarker(id) : null;
                })
              }
            >
              YouTube
            </ToolButton>
            <ToolButton
              onClick={() =>
                askAndInsert('Podcast audio URL', (url) =>
                  /^https?:\/\//.test(url) ? podcastMarker(url) : null,
                )
              }
            >
              Podcast
            </ToolButton>
            <ToolButton onClick={() => askAndInsert('GIF URL', (url) => image(url, 'GIF'))}>GIF</ToolButton>
            <label className="visually-hidden" htmlFor="product-picker">
              Insert a product card
            </label>
            <select
              id="product-picker"
              className="editor-colour"
              value=""
              onChange={(e) => {
                const id = e.target.value;
                if (id) insertSnippet(productMarker(Number(id)), true);
              }}
            >
              <option value="">Product…</option>
              {products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.active ? p.name : `${p.name} (inactive)`}
                </option>
              ))}
            </select>
          </div>
          <textarea
            id="content"
            name="content"
            ref={contentRef}
            rows={12}
            required
            value={content}
            aria-invalid={fields.content ? true : undefined}
            aria-describedby={['content-hint', described('content')].filter(Boolean).join(' ')}
            onChange={(e) => setContent(e.target.value)}
            onKeyDown={onContentKey}
            onPaste={onContentPaste}
            {...contentUpload.dropTarget}
          />
          <p className="muted editor-stats">
            {wordCount(content).toLocaleString('en-US')} words · {readingMinutes(content)} min read
          </p>
          <p id="content-hint" className="muted">
            Markdown. Drop or paste an image here to upload it. Ctrl (⌘ on a Mac) + B bold, I italic, K link,
            S save.
          </p>
          <FieldError id="content-error" message={fields.content} />
          <div className="editor-upload">
            <label htmlFor="content-image">Upload image into the content</label>
            <input id="content-image" {...contentUpload.pickerProps} />
          </div>
          <Notice result={contentUpload.notice} />
          <button
            type="button"
            className="button button-small button-secondary"
            aria-expanded={showPreview}
            aria-controls="post-preview"
            onClick={() => setShowPreview((v) => !v)}
          >
            {showPreview ? 'Hide Preview' : 'Preview'}
          </button>
          {showPreview ? (
            <section
              id="post-preview"
              className="card editor-preview"
              aria-label="Preview"
              aria-busy={preview.state !== 'idle'}
            >
              {preview.data ? (
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server by renderMarkdown, as on the public page
                <div className="prose" dangerouslySetInnerHTML={{ __html: preview.data.html }} />
              ) : (
                <p className="muted">Rendering preview…</p>
              )}
            </section>
          ) : null}
        </div>
        <TextField
          name="excerpt"
          label="Excerpt"
          rows={3}
          required
          value={excerpt}
          onChange={(e) => setExcerpt(e.target.value)}
          error={fields.excerpt}
        />
        <div className="field">
          <label htmlFor="category">Category</label>
          <select
            id="category"
            name="category"
            required
            defaultValue={post?.category ?? ''}
            aria-invalid={fields.category ? true : undefined}
            aria-describedby={described('category')}
          >
            <option value="" disabled>
              Choose a category
            </option>
            {POST_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <FieldError id="category-error" message={fields.category} />
        </div>
        <div className="field">
          <label htmlFor="tag-input">Tags</label>
          <div className="editor-tag-entry">
            <input
              id="tag-input"
              name="tags"
              value={tagDraft}
              onChange={(e) => setTagDraft(e.target.value)}
              onKeyDown={onTagKey}
              aria-describedby="tag-hint"
            />
            <button type="button" className="button button-secondary" onClick={addTag}>
              Add Tag
            </button>
          </div>
          <p id="tag-hint" className="muted">
            Press Enter to add a tag.
          </p>
          <ul className="editor-tags" aria-label="Tags">
            {tags.map((tag) => (
              <li key={tag} className="badge">
                <input type="hidden" name="tags" value={tag} />
                {tag}{' '}
                <button
                  type="button"
                  className="editor-tag-remove"
                  aria-label={`Remove tag ${tag}`}
                  onClick={() => {
                    setTags((current) => current.filter((t) => t !== tag));
                    onChange();
                  }}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </div>
        <TextField
          name="featuredImage"
          label="Featured image URL"
          inputMode="url"
          value={featuredImage}
          onChange={(e) => setFeaturedImage(e.target.value)}
          error={fields.featuredImage}
        />
        <div className="field drop-zone" {...featuredUpload.dropTarget}>
          <label htmlFor="featuredImageFile">Featured image file</label>
          <input
            id="featuredImageFile"
            name="featuredImageFile"
            value={featuredImageFile}
            onChange={(e) => setFeaturedImageFile(e.target.value)}
            aria-invalid={fields.featuredImageFile ? true : undefined}
            aria-describedby={['featured-upload-hint', described('featuredImageFile')]
              .filter(Boolean)
              .join(' ')}
          />
          <FieldError id="featuredImageFile-error" message={fields.featuredImageFile} />
          <label htmlFor="featured-upload" className="editor-sub-label">
            Upload featured image
          </label>
          <input id="featured-upload" {...featuredUpload.pickerProps} />
          <p id="featured-upload-hint" className="muted">
            Or drop an image here.
          </p>
          <Notice result={featuredUpload.notice} />
        </div>
        <TextField
          name="youtubeVideoId"
          label="YouTube video"
          value={youtube}
          onChange={(e) => setYoutube(e.target.value)}
          onBlur={() => setYoutube((v) => extractYouTubeId(v))}
          error={fields.youtubeVideoId}
          hint="Paste a YouTube link or the video id."
        />
        <TextField
          name="podcastUrl"
          label="Podcast URL"
          inputMode="url"
          defaultValue={post?.podcastUrl ?? ''}
          error={fields.podcastUrl}
        />
        <SeoFields
          initial={{
            metaTitle: post?.metaTitle ?? null,
            metaDescription: post?.metaDescription ?? null,
            canonicalUrl: post?.canonicalUrl ?? null,
            socialImage: post?.socialImage ?? null,
          }}
          defaults={{
            title,
            excerpt,
            path: `/post/${slugify(slug || title)}`,
            image: featuredImageFile || featuredImage,
          }}
          fields={fields}
        />
        <div className="field">
          <label htmlFor="status">Status</label>
          <select
            id="status"
            name="status"
            value={status}
            onChange={(e) => setStatus(e.target.value as typeof status)}
          >
            <option value="draft">Draft</option>
            <option value="published">Published</option>
            <option value="scheduled">Scheduled</option>
          </select>
        </div>
        <TextField
          name="publishAt"
          label="Publish at"
          type="datetime-local"
          defaultValue={toLocalInput(post?.publishAt ?? null)}
          error={fields.publishAt}
          hint="Used when the status is Scheduled: the post publishes itself at this time."
        />
        <FormErrorsAtButton show={Boolean(errors) && !saving} />
        <div className="admin-actions">
          <button className="button" type="submit" disabled={saving}>
            {saving ? 'Saving...' : isNew ? 'Create Post' : 'Update Post'}
          </button>
          <Link className="button button-secondary" to="/admin?tab=posts">
            Cancel
          </Link>
        </div>
      </Form>
    </>
  );
}
