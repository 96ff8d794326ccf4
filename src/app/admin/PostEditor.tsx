import { type ReactNode, type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { EditablePost } from '../../blog/post-editor.ts';
import type { PostRevision } from '../../blog/post-revisions.ts';
import { POST_CATEGORIES } from '../../blog/post-schema.ts';
import { slugify } from '../../blog/slug.ts';
import { extractYouTubeId } from '../../blog/youtube.ts';
import type { Tier } from '../../shop/tiers.ts';
import { FormErrorsAtButton, useFieldErrors, useFocusFirstError } from '../components/FormErrors.tsx';
import { type NewPostDraft, readNewPostDraft, useAutosave } from './autosave.ts';
import { Notice } from './Notice.tsx';
import { AutosaveStatus, ConflictHelp } from './post-editor/AutosaveStatus.tsx';
import { ContentField } from './post-editor/ContentField.tsx';
import { DraftOffer } from './post-editor/DraftOffer.tsx';
import { FeaturedImageFields } from './post-editor/FeaturedImageFields.tsx';
import { draftFields, withRevision } from './post-editor/fields.ts';
import type { ProductChoice } from './post-editor/MarkdownToolbar.tsx';
import { PublishFields } from './post-editor/PublishFields.tsx';
import { RevisionsToggle } from './post-editor/RevisionsToggle.tsx';
import { TagsField } from './post-editor/TagsField.tsx';
import { useLeavePrompt } from './post-editor/use-leave-prompt.ts';
import { useSettledSubmit } from './post-editor/use-settled-submit.ts';
import type { PostFormErrors } from './post-form.server.ts';
import type { EditorFields } from './post-form.ts';
import { SeoFields } from './SeoFields.tsx';
import { SharePreview, useSharePreview } from './SharePreview.tsx';
import { SelectField, TextField } from './TextField.tsx';

const VISIBILITY_OPTIONS = [
  { value: 'public', label: 'Everyone' },
  { value: 'members', label: 'Members (signed in)' },
  { value: 'paid', label: 'Paid members' },
];

type Props = {
  post: EditablePost | null;
  /** An autosaved draft newer than the post's last save, offered on opening. */
  draft?: PostRevision | null;
  errors: PostFormErrors | null;
  /** The toolbar's product picker. */
  products: ProductChoice[];
  /** The active tiers a paid post can be limited to. */
  tiers: Pick<Tier, 'id' | 'name'>[];
};

const CATEGORY_OPTIONS = POST_CATEGORIES.map((c) => ({ value: c, label: c }));

/**
 * The editor: the form, and around it what outlives a remount of the form (a restored draft or
 * revision replaces every field): autosave with its base version, and the state of the preview
 * link and of the Revisions panel (both shown at the end of the settings panel).
 */
export function PostEditor({ post, draft = null, errors, products, tiers }: Props) {
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
  const share = useSharePreview(post?.id ?? null);
  const [revisionsOpen, setRevisionsOpen] = useState(false);
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
        tiers={tiers}
        formRef={formRef}
        version={autosave.version}
        onChange={autosave.changed}
        beforeSubmit={autosave.settle}
        panelEnd={
          post ? (
            <>
              <SharePreview share={share} />
              <RevisionsToggle
                open={revisionsOpen}
                setOpen={setRevisionsOpen}
                postId={post.id}
                version={autosave.version}
                current={current}
                onRestored={(restored) => {
                  autosave.rebase(restored.version);
                  show(restored);
                }}
              />
            </>
          ) : null
        }
      />
    </div>
  );
}

type FormProps = {
  post: EditorFields | null;
  isNew: boolean;
  errors: PostFormErrors | null;
  products: ProductChoice[];
  tiers: Props['tiers'];
  formRef: RefObject<HTMLFormElement | null>;
  version: number;
  onChange: () => void;
  /** Settles autosave first; resolves once the form may be submitted with the current version. */
  beforeSubmit: () => Promise<void>;
  /** The preview link and the revisions: buttons of their own (fetch, no form), last in the panel. */
  panelEnd: ReactNode;
};

function EditorForm({
  post,
  isNew,
  errors,
  products,
  tiers,
  formRef,
  version,
  onChange,
  beforeSubmit,
  panelEnd,
}: FormProps) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  // What the address and the SEO defaults are made of.
  const [title, setTitle] = useState(post?.title ?? '');
  const [slug, setSlug] = useState(post?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(post ? post.slug !== slugify(post.title) : false);
  const [excerpt, setExcerpt] = useState(post?.excerpt ?? '');
  const [featuredImage, setFeaturedImage] = useState(post?.featuredImage ?? '');
  const [featuredImageFile, setFeaturedImageFile] = useState(post?.featuredImageFile ?? '');
  const [youtube, setYoutube] = useState(post?.youtubeVideoId ?? '');
  const [visibility, setVisibility] = useState<string>(post?.visibility ?? 'public');
  // Tiers are hidden for posts that are not paid only once the page can show them again.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const [tzOffset, setTzOffset] = useState('');
  // The settings panel beside the text; open until closed, so a page without JavaScript shows it.
  const [settingsOpen, setSettingsOpen] = useState(true);
  // A refused save may name a field in the panel: it opens, so the field can take the focus.
  useEffect(() => {
    if (errors) setSettingsOpen(true);
  }, [errors]);
  const { fields, onInput } = useFieldErrors(errors?.fields);
  useFocusFirstError(formRef, errors);
  const submit = useSettledSubmit(formRef, isNew, beforeSubmit);
  useEffect(() => setTzOffset(String(new Date().getTimezoneOffset())), []);

  return (
    <>
      <Notice result={errors ? { ok: false, title: errors.title, message: errors.message } : null} />
      <Form
        method="post"
        className="admin-form post-editor-form"
        noValidate
        ref={formRef}
        onInput={(event) => {
          onInput(event);
          onChange();
        }}
        onSubmit={submit.onSubmit}
        onKeyDown={submit.onKeyDown}
      >
        <input type="hidden" name="tzOffset" value={tzOffset} />
        {isNew ? null : <input type="hidden" name="baseVersion" value={version} />}
        <div className="post-editor-bar">
          <button
            type="button"
            className="button button-small button-secondary"
            aria-expanded={settingsOpen}
            aria-controls="post-settings"
            onClick={() => setSettingsOpen((open) => !open)}
          >
            Settings
          </button>
        </div>
        <div className={settingsOpen ? 'post-editor-layout' : 'post-editor-layout is-panel-closed'}>
          <div className="post-editor-text">
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
            <ContentField
              initial={post?.content ?? ''}
              error={fields.content}
              products={products}
              onChange={onChange}
            />
          </div>
          <aside
            id="post-settings"
            className="post-settings"
            aria-label="Post settings"
            hidden={!settingsOpen}
          >
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
            <PublishFields post={post} error={fields.publishAt} />
            <TextField
              name="excerpt"
              label="Excerpt"
              rows={3}
              required
              value={excerpt}
              onChange={(e) => setExcerpt(e.target.value)}
              error={fields.excerpt}
            />
            <SelectField
              name="category"
              label="Category"
              required
              defaultValue={post?.category ?? ''}
              placeholder="Choose a category"
              options={CATEGORY_OPTIONS}
              error={fields.category}
            />
            <SelectField
              name="visibility"
              label="Who can read it"
              defaultValue={post?.visibility ?? 'public'}
              options={VISIBILITY_OPTIONS}
              error={fields.visibility}
              hint="For members or paid members: a [paywall] line in the text ends the public preview."
              onChange={(e) => setVisibility(e.target.value)}
            />
            {/* Without JavaScript the choice is always there; the server keeps it for paid posts only. */}
            {tiers.length > 0 ? (
              <fieldset className="admin-fieldset" hidden={live && visibility !== 'paid'}>
                <legend>Paid members of these tiers only (none checked: any paid tier)</legend>
                {tiers.map((t) => (
                  <div className="admin-checkbox" key={t.id}>
                    <input
                      id={`visibility-tier-${t.id}`}
                      type="checkbox"
                      name="visibilityTiers"
                      value={t.id}
                      defaultChecked={post?.visibilityTiers?.includes(t.id) ?? false}
                    />
                    <label htmlFor={`visibility-tier-${t.id}`}>{t.name}</label>
                  </div>
                ))}
              </fieldset>
            ) : null}
            <TagsField initial={post?.tags ?? []} onChange={onChange} />
            <FeaturedImageFields
              url={featuredImage}
              file={featuredImageFile}
              setUrl={setFeaturedImage}
              setFile={setFeaturedImageFile}
              fields={fields}
              onChange={onChange}
            />
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
            {panelEnd}
          </aside>
        </div>
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
