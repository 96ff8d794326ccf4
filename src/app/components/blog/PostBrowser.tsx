import { useEffect, useRef, useState } from 'react';
import { Form, useNavigation, useSubmit } from 'react-router';
import { HOME_CATEGORIES } from '../../../blog/messages.ts';
import type { Pagination, PostCardData } from '../../../blog/posts.ts';
import { Pager, PostGrid } from './PostList.tsx';

const DEBOUNCE_MS = 300;

/**
 * Search and category filter over the posts, kept in the URL (?q=, ?category=) so results can be
 * linked and the form works without JavaScript; with it, typing searches after a 300 ms pause.
 */
export function PostBrowser({
  posts,
  pagination,
  q,
  category,
  action,
  headingId,
  heading,
}: {
  posts: PostCardData[];
  pagination: Pagination;
  q: string;
  category: string;
  action: string;
  headingId: string;
  heading: string;
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  const [query, setQuery] = useState(q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => setQuery(q), [q]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // A pending search must not cut short a navigation elsewhere (a post opened from the list).
  useEffect(() => {
    if (navigation.location && navigation.location.pathname !== action) clearTimeout(timer.current);
  }, [navigation.location, action]);
  const filtering = Boolean(q || category);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === action;
  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (category) params.set('category', category);
    if (page > 1) params.set('page', String(page));
    const search = params.toString();
    return `${action}${search ? `?${search}` : ''}`;
  };
  return (
    <section className="container post-browser" aria-labelledby={headingId}>
      <div className="section-header">
        <h2 id={headingId}>{heading}</h2>
        <Form
          ref={form}
          method="get"
          action={action}
          className="post-filters"
          role="search"
          preventScrollReset
        >
          <label htmlFor={`${headingId}-q`} className="visually-hidden">
            Search posts
          </label>
          <input
            id={`${headingId}-q`}
            type="search"
            name="q"
            placeholder="Search posts…"
            value={query}
            maxLength={200}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              clearTimeout(timer.current);
              const target = event.currentTarget.form;
              timer.current = setTimeout(
                () => submit(target, { replace: true, preventScrollReset: true }),
                DEBOUNCE_MS,
              );
            }}
          />
          <label htmlFor={`${headingId}-category`} className="visually-hidden">
            Category
          </label>
          <select
            id={`${headingId}-category`}
            name="category"
            defaultValue={category || 'All'}
            key={category}
            onChange={(event) => {
              // This submission carries the typed query too: a pending one would only repeat it.
              clearTimeout(timer.current);
              submit(event.currentTarget.form, { replace: true, preventScrollReset: true });
            }}
          >
            {HOME_CATEGORIES.map((c) => (
              <option key={c} value={c === 'All' ? '' : c}>
                {c}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-secondary">
            Search
          </button>
        </Form>
      </div>
      <div aria-live="polite" aria-busy={searching}>
        <PostGrid posts={posts} filtering={filtering} />
      </div>
      <Pager pagination={pagination} href={pageHref} />
    </section>
  );
}
