import { type ChangeEvent, useState } from 'react';
import { SEO_LIMITS } from '../../blog/post-schema.ts';
import { TextField } from './TextField.tsx';

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

/** Search and social overrides, each with what it falls back to, and live previews of both. */
export function SeoFields({ initial, defaults, fields }: Props) {
  const [values, setValues] = useState({
    metaTitle: initial.metaTitle ?? '',
    metaDescription: initial.metaDescription ?? '',
    canonicalUrl: initial.canonicalUrl ?? '',
    socialImage: initial.socialImage ?? '',
  });
  /** A field's name, value, change handler and error: what TextField takes for each of them. */
  const bind = (name: keyof typeof values) => ({
    name,
    value: values[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const value = e.target.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
    error: fields[name],
  });
  const title = values.metaTitle.trim() || defaults.title;
  const description = values.metaDescription.trim() || defaults.excerpt;
  const address = values.canonicalUrl.trim() || defaults.path;
  const image = values.socialImage.trim() || defaults.image;
  return (
    <fieldset className="editor-seo">
      <legend>Search and social</legend>
      <TextField
        {...bind('metaTitle')}
        label="Meta title"
        placeholder={defaults.title}
        describedBy="metaTitle-count"
      >
        <Counter id="metaTitle-count" length={title.length} limit={SEO_LIMITS.metaTitle} />
      </TextField>
      <TextField
        {...bind('metaDescription')}
        label="Meta description"
        rows={2}
        placeholder={defaults.excerpt}
        describedBy="metaDescription-count"
      >
        <Counter id="metaDescription-count" length={description.length} limit={SEO_LIMITS.metaDescription} />
      </TextField>
      <TextField
        {...bind('canonicalUrl')}
        label="Canonical URL"
        inputMode="url"
        hint="Only when the post first appeared elsewhere; empty means this post's own address."
      />
      <TextField
        {...bind('socialImage')}
        label="Social image"
        inputMode="url"
        hint="Empty means the featured image."
      />
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
