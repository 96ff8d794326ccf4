import type { ImgHTMLAttributes } from 'react';
import { IMAGE_VARIANTS } from '../../media/messages.ts';
import { type ImageVariantName, uploadVariantUrl } from '../../media/variant-names.ts';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> & {
  src: string;
  /** Required: empty for a decorative image. */
  alt: string;
  /** Which of the upload's WebP variants fits where the image is shown (its crop and size). */
  variant: ImageVariantName;
};

/**
 * An image that may be an upload: uploads are served as their WebP variant (smaller, cropped
 * for the place), the original as the fallback; anything else is a plain <img>. Width and
 * height always come along, so the page does not shift when the image arrives.
 */
export function UploadedImage({ src, alt, variant, ...img }: Props) {
  const webp = uploadVariantUrl(src, variant);
  const image = <img src={src} alt={alt} {...img} />;
  if (!webp) return image;
  const { width, height } = IMAGE_VARIANTS.find((v) => v.name === variant) ?? IMAGE_VARIANTS[0];
  return (
    <picture>
      <source type="image/webp" srcSet={webp} width={width} height={height} />
      {image}
    </picture>
  );
}
