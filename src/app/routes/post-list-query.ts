import { HOME_CATEGORIES } from '../../blog/messages.ts';

/** ?q=, ?category= and ?page= of a post list, cleaned: unknown categories and bad pages are ignored. */
export function postListQuery(request: Request): { q?: string; category?: string; page: number } {
  const params = new URL(request.url).searchParams;
  const q = params.get('q')?.trim().slice(0, 200) || undefined;
  const rawCategory = params.get('category') ?? '';
  const category =
    (HOME_CATEGORIES as readonly string[]).includes(rawCategory) && rawCategory !== 'All'
      ? rawCategory
      : undefined;
  const page = Number(params.get('page'));
  return { q, category, page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1 };
}
