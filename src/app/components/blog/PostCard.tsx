import { Link } from 'react-router';
import { cardMedia } from '../../../blog/card-media.ts';
import type { PostCardData } from '../../../blog/posts.ts';
import { formatDate } from '../../../blog/reading.ts';
import { UploadedImage } from '../UploadedImage.tsx';
import { MediaPlaceholder } from './MediaPlaceholder.tsx';
import { CategoryLink } from './TagLink.tsx';

/** A post in a grid: media by the SPEC §4 priority, category, title, excerpt and date. */
export function PostCard({ post, headingLevel = 3 }: { post: PostCardData; headingLevel?: 2 | 3 }) {
  const media = cardMedia(post);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="post-card card">
      <div className="post-card-media" aria-hidden={media.kind !== 'image'}>
        {media.kind === 'image' && (
          <UploadedImage
            src={media.src}
            variant="card"
            alt=""
            loading="lazy"
            decoding="async"
            width={800}
            height={400}
          />
        )}
        {media.kind === 'video' && <MediaPlaceholder kind="Video" />}
        {media.kind === 'podcast' && <MediaPlaceholder kind="Podcast" />}
        {media.kind === 'none' && <MediaPlaceholder kind="No Image" />}
      </div>
      <div className="post-card-body">
        <CategoryLink category={post.category} />
        <Heading className="post-card-title">
          <Link to={`/post/${post.slug}`}>{post.title}</Link>
        </Heading>
        <p className="muted post-card-excerpt">{post.excerpt}</p>
        <p className="post-card-meta muted">
          <time dateTime={post.publishedAt ?? post.createdAt}>
            {formatDate(post.publishedAt ?? post.createdAt)}
          </time>
          {' · '}
          {post.viewCount.toLocaleString('en-US')} views
        </p>
      </div>
    </article>
  );
}
