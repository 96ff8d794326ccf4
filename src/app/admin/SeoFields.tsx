import { useState } from 'react';
import { SEO_LIMITS } from '../../blog/post-schema.ts';

type Props = {
  initial: {
    metaTitle: string | null;
    metaDescription: string | null;
    canonicalUrl: string | null;
    socialImage: string | null;
  };
  /** What an empty field falls back to: the post's own title, excerpt, address and featured image. */
  defaults: { title: string; excerpt: string; path: string; image: string };
  fields: Record<string, string>;
};

function Counter({ id, length, limit }: { id: string; length: number; limit: number }) {
  return (
    <p id={id} className={length > limit ? 'seo-counter seo-over' : 'seo-counter muted'}>
      {length}/{limit} characters{length > limit ? ' — search results cut it off' : ''}
    </p>
  );
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

/** Search and social overrides, each with what it falls back to, and live previews of both. */
export function SeoFields({ initial, defaults, fields }: Props) {
  const [metaTitle, setMetaTitle] = useState(initial.metaTitle ?? '');
  const [metaDescription, setMetaDescription] = useState(initial.metaDescription ?? '');
  const [canonicalUrl, setCanonicalUrl] = useState(initial.canonicalUrl ?? '');
  const [socialImage, setSocialImage] = useState(initial.socialImage ?? '');
  const title = metaTitle.trim() || defaults.title;
  const description = metaDescription.trim() || defaults.excerpt;
  const address = canonicalUrl.trim() || defaults.path;
  const image = socialImage.trim() || defaults.image;
  const describedBy = (name: string, hint: string) =>
    [hint, fields[name] ? `${name}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset className="editor-seo">
      <legend>Search and social</legend>
      <div className="field">
        <label htmlFor="metaTitle">Meta title</label>
        <input
          id="metaTitle"
          name="metaTitle"
          value={metaTitle}
          placeholder={defaults.title}
          onChange={(e) => setMetaTitle(e.target.value)}
          aria-invalid={fields.metaTitle ? true : undefined}
          aria-describedby={describedBy('metaTitle', 'metaTitle-count')}
        />
        <Counter id="metaTitle-count" length={title.length} limit={SEO_LIMITS.metaTitle} />
        <FieldError id="metaTitle-error" message={fields.metaTitle} />
      </div>
      <div className="field">
        <label htmlFor="metaDescription">Meta description</label>
        <textarea
          id="metaDescription"
          name="metaDescription"
          rows={2}
          value={metaDescription}
          placeholder={defaults.excerpt}
          onChange={(e) => setMetaDescription(e.target.value)}
          aria-invalid={fields.metaDescription ? true : undefined}
          aria-describedby={describedBy('metaDescription', 'metaDescription-count')}
        />
        <Counter id="metaDescription-count" length={description.length} limit={SEO_LIMITS.metaDescription} />
        <FieldError id="metaDescription-error" message={fields.metaDescription} />
      </div>
      <div className="field">
        <label htmlFor="canonicalUrl">Canonical URL</label>
        <input
          id="canonicalUrl"
          name="canonicalUrl"
          inputMode="url"
          value={canonicalUrl}
          onChange={(e) => setCanonicalUrl(e.target.value)}
          aria-invalid={fields.canonicalUrl ? true : undefined}
          aria-describedby={describedBy('canonicalUrl', 'canonicalUrl-hint')}
        />
        <p id="canonicalUrl-hint" className="muted">
          Only when the post first appeared elsewhere; empty means this post's own address.
        </p>
        <FieldError id="canonicalUrl-error" message={fields.canonicalUrl} />
      </div>
      <div className="field">
        <label htmlFor="socialImage">Social image</label>
        <input
          id="socialImage"
          name="socialImage"
          inputMode="url"
          value={socialImage}
          onChange={(e) => setSocialImage(e.target.value)}
          aria-invalid={fields.socialImage ? true : undefined}
          aria-describedby={describedBy('socialImage', 'socialImage-hint')}
        />
        <p id="socialImage-hint" className="muted">
          Empty means the featured image.
        </p>
        <FieldError id="socialImage-error" message={fields.socialImage} />
      </div>
      <div className="seo-previews">
        <figure className="seo-search card">
          <figcaption className="muted">Search result</figcaption>
          <p className="seo-search-url">{address}</p>
          <p className="seo-search-title">{title}</p>
          <p className="seo-search-description">{description}</p>
        </figure>
        <figure className="seo-social card">
          <figcaption className="muted">Social card</figcaption>
          {image ? <img src={image} alt="" width={300} height={157} /> : null}
          <p className="seo-social-title">{title}</p>
          <p className="muted">{description}</p>
        </figure>
      </div>
    </fieldset>
  );
}
