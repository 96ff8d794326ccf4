/** A page's own path: a hydrated page posts its forms to <path>.data (React Router's single fetch). */
export function pagePath(path: string): string {
  return path === '/_root.data' ? '/' : path.replace(/\.data$/, '');
}
