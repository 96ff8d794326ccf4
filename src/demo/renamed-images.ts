/**
 * Demo images that issue 35's drawn set replaced, by the file that took each one's place. A site
 * seeded before keeps these paths in its posts, products and the mails it has sent: they are
 * redirected rather than left to 404.
 */
export const RENAMED_DEMO_IMAGES: Readonly<Record<string, string>> = {
  '/demo/code.svg': '/demo/code-sql.svg',
  '/demo/course.svg': '/demo/course-postgres.svg',
  '/demo/notebook.svg': '/demo/markdown.svg',
  '/demo/travel.svg': '/demo/city.svg',
  '/demo/video.svg': '/demo/video-checkout.svg',
  '/demo/workspace.svg': '/demo/tools.svg',
};
