import { slugify } from '../../../blog/slug.ts';

/** A tag badge that opens the tag's page; a plain link, so it works on plain post pages too. */
export function TagLink({ tag }: { tag: string }) {
  const slug = slugify(tag);
  if (!slug) return <span className="badge badge-tag">{`#${tag}`}</span>;
  return (
    <a className="badge badge-tag" href={`/tag/${slug}`}>
      {`#${tag}`}
    </a>
  );
}

/** A category badge that opens the category's page. */
export function CategoryLink({ category }: { category: string }) {
  return (
    <a className="badge" href={`/category/${slugify(category)}`}>
      {category}
    </a>
  );
}
