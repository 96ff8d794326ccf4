import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import { cardMedia, type PostCardData, postType } from '../../../blog/posts.ts';
import { useHydrated } from '../../hydrated.ts';
import { UploadedImage } from '../UploadedImage.tsx';
import { FeaturedMedia } from './FeaturedMedia.tsx';
import { MediaPlaceholder } from './MediaPlaceholder.tsx';

const INTERVAL_MS = 5_000;

/**
 * Featured posts: newest first, up to 5, advancing every 5 s and wrapping. It pauses while
 * hovered or focused, and does not move by itself for people who prefer reduced motion.
 */
export function Carousel({ posts }: { posts: PostCardData[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(true);
  const hydrated = useHydrated();
  useEffect(() => {
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    setReducedMotion(query.matches);
    const onChange = () => setReducedMotion(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  useEffect(() => {
    if (paused || reducedMotion || posts.length < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % posts.length), INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, reducedMotion, posts.length]);

  if (posts.length === 0) {
    return (
      <section className="carousel carousel-empty" aria-label="Featured posts">
        <h2>{BLOG_MESSAGES.welcomePlaceholder}</h2>
        <p className="muted">{BLOG_MESSAGES.tagline}</p>
      </section>
    );
  }
  const current = posts[index] ?? posts[0];
  const media = cardMedia(current);
  const go = (next: number) => setIndex((next + posts.length) % posts.length);
  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label="Featured posts"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern: each slide is a group */}
      <div
        className="carousel-slide"
        role="group"
        aria-roledescription="slide"
        aria-label={`${index + 1} of ${posts.length}`}
        aria-live={paused ? 'polite' : 'off'}
      >
        <div className="carousel-media" aria-hidden="true">
          <FeaturedMedia media={media} placeholder={postType(current)} />
        </div>
        <div className="carousel-text">
          <span className="badge" data-testid="carousel-type">
            {postType(current)}
          </span>
          <h2 className="carousel-title">
            <Link to={`/post/${current.id}`}>{current.title}</Link>
          </h2>
          <p>{current.excerpt}</p>
        </div>
      </div>
      {/* Arrows and dots only turn slides: without JavaScript they would do nothing, so they wait. */}
      {hydrated && posts.length > 1 && (
        <div className="carousel-controls">
          <button
            type="button"
            className="icon-button"
            aria-label="Previous post"
            onClick={() => go(index - 1)}
          >
            ‹
          </button>
          <div className="carousel-dots">
            {posts.map((post, i) => (
              <button
                key={post.id}
                type="button"
                className={i === index ? 'dot active' : 'dot'}
                aria-label={`Show post ${i + 1}: ${post.title}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button type="button" className="icon-button" aria-label="Next post" onClick={() => go(index + 1)}>
            ›
          </button>
        </div>
      )}
      <ul className="carousel-thumbs">
        {posts.slice(0, 4).map((post, i) => {
          const thumb = cardMedia(post);
          const type = postType(post);
          return (
            <li key={post.id}>
              {/* A link to the post, which works without JavaScript; with it, a click shows the slide. */}
              <a
                href={`/post/${post.id}`}
                className={i === index ? 'thumb active' : 'thumb'}
                onClick={(event) => {
                  event.preventDefault();
                  go(i);
                }}
                // Names the post; a thumbnail without an image shows its type, so the name starts with it
                // (once: a title like 'Video: …' does not say it twice).
                aria-label={
                  thumb.kind === 'image'
                    ? `Show ${post.title}`
                    : `${type}: show ${post.title.replace(new RegExp(`^${type}:\\s*`, 'i'), '')}`
                }
              >
                {thumb.kind === 'image' ? (
                  <UploadedImage
                    src={thumb.src}
                    variant="featured"
                    alt=""
                    width={160}
                    height={84}
                    loading="lazy"
                  />
                ) : (
                  <MediaPlaceholder kind={type} />
                )}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
