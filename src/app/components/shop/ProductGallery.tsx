import { type MouseEvent, useRef, useState } from 'react';
import { ProductImage } from './ProductImage.tsx';

const slideId = (index: number) => `product-image-${index + 1}`;

/**
 * A product's images. The row of images scrolls sideways with CSS scroll snap: a swipe on a
 * phone, the arrow keys once it has focus, and the thumbnails are links to each image, so all of
 * it works without JavaScript. The script only keeps the page from jumping to a thumbnail's image
 * and marks the thumbnail of the image in view.
 */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  if (images.length < 2) return <ProductImage src={images[0] ?? null} alt={name} size="large" />;
  const label = (index: number) => `${name}, image ${index + 1} of ${images.length}`;
  const show = (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    const slide = track.current?.children[index] as HTMLElement | undefined;
    if (!track.current || !slide) return;
    event.preventDefault();
    track.current.scrollTo({ left: slide.offsetLeft - track.current.offsetLeft });
    setCurrent(index);
  };
  return (
    <section className="product-gallery" aria-label={`Images of ${name}`}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is focusable so the arrow keys can scroll it */}
      <div
        ref={track}
        className="gallery-track"
        tabIndex={0}
        role="region"
        aria-label={`${images.length} images of ${name}; use the arrow keys to move between them`}
        onScroll={(event) => {
          const { scrollLeft, clientWidth } = event.currentTarget;
          setCurrent(Math.min(images.length - 1, Math.max(0, Math.round(scrollLeft / clientWidth))));
        }}
      >
        {images.map((src, index) => (
          // Images may repeat in a gallery: the position is what tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity
          <figure key={index} id={slideId(index)} className="gallery-slide">
            <ProductImage
              src={src}
              alt={label(index)}
              size={index === 0 ? 'large' : 'gallery'}
            />
          </figure>
        ))}
      </div>
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
    </section>
  );
}
