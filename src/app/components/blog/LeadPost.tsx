import { Link } from 'react-router';
import { cardMedia, postType } from '../../../blog/card-media.ts';
import type { PostCardData } from '../../../blog/posts.ts';
import { formatDate } from '../../../blog/reading.ts';
import { FeaturedMedia } from './FeaturedMedia.tsx';
import { CategoryLink } from './TagLink.tsx';

/** The home page's lead (Casper's large first card): image, category, title, excerpt, reading time. */
export function LeadPost({ post, minutes }: { post: PostCardData; minutes: number }) {
  const media = cardMedia(post);
  const published = post.publishedAt ?? post.createdAt;
  return (
    <article className="lead-post card" aria-labelledby="lead-post-title">
      <Link to={`/post/${post.slug}`} className="lead-post-media" tabIndex={-1} aria-hidden="true">
        {/* The first large image of the page: fetched before the rest. */}
        <FeaturedMedia
          media={media}
          placeholder={media.kind === 'none' ? 'No Image' : postType(post)}
          fetchPriority="high"
        />
      </Link>
      <div className="lead-post-body">
        <CategoryLink category={post.category} />
        <h2 id="lead-post-title" className="lead-post-title">
          <Link to={`/post/${post.slug}`}>{post.title}</Link>
        </h2>
        <p className="lead-post-excerpt">{post.excerpt}</p>
        <p className="muted lead-post-meta">
          <time dateTime={published}>{formatDate(published)}</time> · {minutes} min read
        </p>
      </div>
    </article>
  );
}
