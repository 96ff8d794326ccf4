import { UploadedImage } from '../UploadedImage.tsx';

/** A product's image (an upload as its WebP variant), or a neutral placeholder when it has none. */
export function ProductImage({
  src,
  alt,
  className,
  size = 'card',
  eager = false,
}: {
  src: string | null;
  alt: string;
  className?: string;
  /** 'gallery': a product page's further images, as large but not fetched ahead. */
  size?: 'card' | 'thumb' | 'large' | 'gallery';
  /** A card in view as the page opens (the shop's first row): fetched at once. */
  eager?: boolean;
}) {
  const big = size === 'large' || size === 'gallery';
  const dims = size === 'thumb' ? 96 : big ? 640 : 400;
  if (!src) {
    return (
      <div
        className={`product-image product-image-placeholder product-image-${size} ${className ?? ''}`}
        aria-hidden="true"
      >
        <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="M21 17l-5-5-8 7" />
        </svg>
      </div>
    );
  }
  return (
    <UploadedImage
      className={`product-image product-image-${big ? 'large' : size} ${className ?? ''}`}
      src={src}
      alt={alt}
      // The product page's image is shown large; cards and cart lines take the smaller variant.
      variant={big ? 'featured' : 'card'}
      width={dims}
      height={size === 'thumb' ? dims : Math.round(dims * 0.75)}
      // The large size is a product page's main image, its largest paint: load it first.
      loading={size === 'large' || eager ? 'eager' : 'lazy'}
      fetchPriority={size === 'large' ? 'high' : undefined}
    />
  );
}
