import type { ComponentProps } from 'react';
import type { cardMedia } from '../../../blog/card-media.ts';
import { UploadedImage } from '../UploadedImage.tsx';
import { MediaPlaceholder } from './MediaPlaceholder.tsx';

/** A post's featured image at full width (the home page's lead and carousel), or its placeholder. */
export function FeaturedMedia({
  media,
  placeholder,
  fetchPriority,
  lazy,
}: {
  media: ReturnType<typeof cardMedia>;
  placeholder: ComponentProps<typeof MediaPlaceholder>['kind'];
  fetchPriority?: 'high';
  /** Out of view when the page opens (a carousel's later slides). */
  lazy?: boolean;
}) {
  return media.kind === 'image' ? (
    <UploadedImage
      src={media.src}
      variant="featured"
      alt=""
      width={1200}
      height={630}
      fetchPriority={fetchPriority}
      loading={lazy ? 'lazy' : undefined}
    />
  ) : (
    <MediaPlaceholder kind={placeholder} />
  );
}
