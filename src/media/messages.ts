/** Upload strings of SPEC §5 and §8, shared by the API, the editor and the tests. */
export const UPLOAD_MESSAGES = {
  tooLarge: 'File size must be less than 10MB',
  notImage: 'Only JPEG, PNG, WebP and GIF images can be uploaded',
  noFile: 'Choose an image file to upload',
  success: 'Image uploaded successfully',
  failed: (message: string) => `Failed to upload image: ${message}`,
} as const;

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The image guide of SPEC §2: every upload also gets a WebP at each of these sizes. */
export const IMAGE_VARIANTS = [
  {
    name: 'featured',
    width: 1200,
    height: 630,
    ratio: '1.91:1',
    use: 'Featured images (social sharing and SEO)',
  },
  { name: 'hero', width: 1920, height: 800, ratio: '2.4:1', use: 'Hero banners' },
  { name: 'card', width: 800, height: 400, ratio: '2:1', use: 'Post cards' },
] as const;
