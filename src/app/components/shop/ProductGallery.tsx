import { type KeyboardEvent, type MouseEvent, useRef, useState } from 'react';
import { ProductImage } from './ProductImage.tsx';

const slideId = (index: number) => `product-image-${index + 1}`;

/**
 * A product's images. The row of images scrolls sideways with CSS scroll snap: a swipe on a
 * phone, the arrow keys once it has focus, and the thumbnails are links to each image, so all of
 * it works without JavaScript. The script moves exactly one image a key press (Home and End too),
 * keeps the page from jumping to a thumbnail's image and marks the thumbnail of the image in view.
 */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const track = useRef<HTMLElement>(null);
  const [current, setCurrent] = useState(0);
  // Where the last move is headed: a key pressed during the smooth scroll goes on from there.
  const aim = useRef<number | null>(null);
  if (images.length < 2) return <ProductImage src={images[0] ?? null} alt={name} size="large" />;
  const last = images.length - 1;
  const label = (index: number) => `${name}, image ${index + 1} of ${images.length}`;
  const go = (index: number) => {
    if (!track.current) return;
    const target = Math.min(last, Math.max(0, index));
    // Each image is as wide as the row. No move, no scrollend to clear the aim.
    const left = target * track.current.clientWidth;
    aim.current = Math.abs(track.current.scrollLeft - left) < 1 ? null : target;
    track.current.scrollTo({ left });
    setCurrent(target);
  };
  const show = (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    event.preventDefault();
    go(index);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const from = aim.current ?? current;
    const keys: Record<string, number> = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: last };
    const to = keys[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  return (
    <div className="product-gallery">
      <section
        ref={track}
        className="gallery-track"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so the arrow keys scroll it
        tabIndex={0}
        aria-label={`${images.length} images of ${name}; use the arrow keys to move between them`}
        onKeyDown={onKeyDown}
        onScroll={(event) => {
          const { scrollLeft, clientWidth } = event.currentTarget;
          if (aim.current === null)
            setCurrent(Math.min(last, Math.max(0, Math.round(scrollLeft / clientWidth))));
        }}
        onScrollEnd={() => {
          aim.current = null;
        }}
      >
        {images.map((src, index) => (
          // Images may repeat in a gallery: the position is what tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity
          <figure key={index} id={slideId(index)} className="gallery-slide">
            <ProductImage src={src} alt={label(index)} size={index === 0 ? 'large' : 'gallery'} />
          </figure>
        ))}
      </section>
      <ul className="gallery-thumbs">
        {images.map((src, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity
          <li key={index}>
            <a
              href={`#${slideId(index)}`}
              className="gallery-thumb"
              aria-label={`Show image ${index + 1} of ${images.length}`}
              aria-current={index === current ? 'true' : undefined}
              onClick={(event) => show(event, index)}
            >
              <ProductImage src={src} alt="" size="thumb" />
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
