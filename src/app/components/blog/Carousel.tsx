import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { cardMedia, postType } from '../../../blog/card-media.ts';
import { BLOG_MESSAGES } from '../../../blog/messages.ts';
import type { PostCardData } from '../../../blog/posts.ts';
import { useHydrated } from '../../hydrated.ts';
import { FeaturedMedia } from './FeaturedMedia.tsx';

const INTERVAL_MS = 5_000;

/**
 * Featured posts, newest first, up to 5: a row of slides that scrolls sideways and snaps, so
 * every slide can be reached without JavaScript (swipe, scroll, or the keyboard on the focused
 * row). With it, Previous, Next and a 'n of m' count turn the slides, and the row advances every
 * 5 s, pausing while hovered or focused and never moving by itself under reduced motion.
 */
export function Carousel({ posts }: { posts: PostCardData[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(true);
  const track = useRef<HTMLDivElement>(null);
  // The slide a smooth scroll is heading for: until it gets there, the row's passing positions
  // are not the slide shown, or Previous clicked mid-scroll would turn from the wrong one.
  const heading = useRef<number | null>(null);
  const hydrated = useHydrated();
  useEffect(() => {
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    setReducedMotion(query.matches);
    const onChange = () => setReducedMotion(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  const scrollToSlide = useCallback(
    (row: HTMLDivElement, next: number, behavior: ScrollBehavior) => {
      const target = (next + posts.length) % posts.length;
      heading.current = target;
      row.scrollTo({ left: target * row.clientWidth, behavior });
      setIndex(target);
    },
    [posts.length],
  );
  const show = (next: number) => {
    if (track.current) scrollToSlide(track.current, next, reducedMotion ? 'instant' : 'smooth');
  };
  const settle = (row: HTMLDivElement) => {
    heading.current = null;
    setIndex(Math.round(row.scrollLeft / row.clientWidth));
  };
  useEffect(() => {
    if (paused || reducedMotion || posts.length < 2) return;
    const timer = setInterval(() => {
      const row = track.current;
      if (row)
        scrollToSlide(row, (heading.current ?? Math.round(row.scrollLeft / row.clientWidth)) + 1, 'smooth');
    }, INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, reducedMotion, posts.length, scrollToSlide]);

  if (posts.length === 0) {
    return (
      <section className="carousel carousel-empty" aria-label="Featured posts">
        <h2>{BLOG_MESSAGES.welcomePlaceholder}</h2>
        <p className="muted">{BLOG_MESSAGES.tagline}</p>
      </section>
    );
  }
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
      {/* biome-ignore lint/a11y/useSemanticElements: a row of slides, not a fieldset of controls */}
      <div
        ref={track}
        className="carousel-track"
        role="group"
        aria-label="Slides, scroll sideways"
        // A row that scrolls must be reachable by keyboard (WCAG 2.1.1): the arrow keys scroll it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the focused row scrolls with the arrow keys
        tabIndex={0}
        onScroll={(event) => {
          const row = event.currentTarget;
          const arrived =
            heading.current !== null && Math.abs(row.scrollLeft - heading.current * row.clientWidth) < 1;
          if (heading.current === null || arrived) settle(row);
        }}
        // A swipe that interrupts a smooth scroll ends it elsewhere: the count follows the row.
        onScrollEnd={(event) => settle(event.currentTarget)}
      >
        {posts.map((post, i) => {
          const type = postType(post);
          const media = cardMedia(post);
          return (
            // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern: each slide is a group
            <div
              key={post.id}
              className="carousel-slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${posts.length}`}
            >
              <div className="carousel-media" aria-hidden="true">
                <FeaturedMedia
                  media={media}
                  placeholder={media.kind === 'none' ? 'No Image' : type}
                  lazy={i > 0}
                />
              </div>
              <div className="carousel-text">
                <span className="badge" data-testid="carousel-type">
                  {type}
                </span>
                <h2 className="carousel-title">
                  <Link to={`/post/${post.id}`}>{post.title}</Link>
                </h2>
                <p>{post.excerpt}</p>
              </div>
            </div>
          );
        })}
      </div>
      {/* Buttons only turn slides: without JavaScript they would do nothing, so they wait. */}
      {hydrated && posts.length > 1 && (
        <div className="carousel-controls">
          <button type="button" className="button button-secondary" onClick={() => show(index - 1)}>
            <span aria-hidden="true">‹ </span>Previous
          </button>
          <span className="carousel-count" aria-live={paused ? 'polite' : 'off'}>
            {index + 1} of {posts.length}
          </span>
          <button type="button" className="button button-secondary" onClick={() => show(index + 1)}>
            Next<span aria-hidden="true"> ›</span>
          </button>
        </div>
      )}
    </section>
  );
}
