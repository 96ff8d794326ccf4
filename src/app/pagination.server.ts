import { redirect } from 'react-router';

/**
 * A page number past the last page goes to the last page (a redirect that keeps the other
 * parameters), so a list never says 'Page 99 of 2'. One rule for every paged list: /blog,
 * /shop and the admin lists.
 */
export function redirectPastLastPage(request: Request, pagination: { page: number; pages: number }): void {
  const last = Math.max(1, pagination.pages);
  if (pagination.page <= last) return;
  const url = new URL(request.url);
  if (last === 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(last));
  throw redirect(`${url.pathname}${url.search}`);
}
