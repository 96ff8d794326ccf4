import type { ReactNode } from 'react';
import type { Heading } from '../../../blog/markdown.ts';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import type { Post } from '../../../blog/posts.ts';
import { authorName, formatDate, LONG_READ_MINUTES } from '../../../blog/reading.ts';
import { UploadedImage } from '../UploadedImage.tsx';
import { CategoryLink, TagLink } from './TagLink.tsx';

type Props = {
  post: Post;
  headings: Heading[];
  minutes: number;
  /** Above the header: the preview's banner. */
  banner?: ReactNode;
  /** After a gated post's preview, for a reader without access: how to get it. */
  paywall?: ReactNode;
  /** Below the post: sharing, the author, the next posts and comments on the public page. */
  children?: ReactNode;
};

/** A post as readers see it: the public page and a shared draft preview render the same. */
export function PostArticle({ post, headings, minutes, banner, paywall, children }: Props) {
  const image = post.featuredImageFile || post.featuredImage;
  const published = post.publishedAt ?? post.createdAt;
  return (
    <article className="container post-page">
      {/* Filled by the scroll itself (blog.css): no script on the page. */}
      {minutes >= LONG_READ_MINUTES && <div className="reading-progress" aria-hidden="true" />}
      {banner}
      <header className="post-header">
        <p className="post-badges">
          <CategoryLink category={post.category} />
          {post.tags.map((tag) => (
            <TagLink key={tag} tag={tag} />
          ))}
        </p>
        <h1>{post.title}</h1>
        <p className="post-excerpt">{post.excerpt}</p>
        <p className="post-meta muted">
          By {authorName(post.author)} · <time dateTime={published}>{formatDate(published)}</time> · {minutes}{' '}
          min read · {post.viewCount.toLocaleString('en-US')} views
        </p>
      </header>
      {image && (
        <UploadedImage
          className="post-image"
          src={image}
          variant="featured"
          alt=""
          width={1200}
          height={630}
        />
      )}
      {post.youtubeVideoId && (
        <div className="video-embed">
          <iframe
            src={`https://www.youtube-nocookie.com/embed/${post.youtubeVideoId}`}
            title={/^video\b/i.test(post.title) ? post.title : `Video: ${post.title}`}
            loading="lazy"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
      )}
      {post.podcastUrl && (
        <section className="audio-player card" aria-labelledby="listen-heading">
          <h2 id="listen-heading">{BLOG_MESSAGES.listen}</h2>
          {/* biome-ignore lint/a11y/useMediaCaption: episodes come with show notes in the post body */}
          <audio controls preload="none" src={post.podcastUrl} />
        </section>
      )}
      {headings.length >= 3 && (
        <nav className="toc card" aria-labelledby="toc-heading">
          <h2 id="toc-heading">Contents</h2>
          <ol>
            {headings.map((h) => (
              <li key={h.id} className={h.level === 3 ? 'toc-sub' : undefined}>
                <a href={`#${h.id}`}>{h.text}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {/* Sanitized when the post was saved (src/blog/markdown.ts). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: allow-list sanitized HTML */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
      {paywall}
      <footer className="post-footer">
        {post.tags.length > 0 && (
          <p>
            Tags:{' '}
            {post.tags.map((tag) => (
              <TagLink key={tag} tag={tag} />
            ))}
          </p>
        )}
        <p className="muted">
          Published <time dateTime={published}>{formatDate(published)}</time>
          {post.updatedAt !== post.createdAt && (
            <>
              {' · '}Updated <time dateTime={post.updatedAt}>{formatDate(post.updatedAt)}</time>
            </>
          )}
        </p>
      </footer>
      {children}
    </article>
  );
}
