import { Form, Link } from 'react-router';

export const PAGE_NOT_FOUND = 'Page not found';

/**
 * An address no page answers: a way on from there (search the posts, the latest ones, home).
 * `latest` comes from the not-found route's loader; the error boundary's copy has none.
 */
export function NotFound({ latest = [] }: { latest?: { slug: string; title: string }[] }) {
  return (
    <section className="container not-found">
      <h1>{PAGE_NOT_FOUND}</h1>
      <p className="muted">There is nothing at this address: it may have moved, or be mistyped.</p>
      <Form method="get" action="/blog" role="search" className="not-found-search">
        <label htmlFor="not-found-q" className="visually-hidden">
          Search posts
        </label>
        <input id="not-found-q" type="search" name="q" placeholder="Search posts…" maxLength={200} />
        <button type="submit" className="button button-secondary">
          Search
        </button>
      </Form>
      {latest.length > 0 && (
        <section aria-labelledby="not-found-latest">
          <h2 id="not-found-latest">Latest posts</h2>
          <ul className="not-found-latest">
            {latest.map((post) => (
              <li key={post.slug}>
                <Link to={`/post/${post.slug}`}>{post.title}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Link className="button" to="/">
        Back to home
      </Link>
    </section>
  );
}

/**
 * A record that is not there (an order, a post, a product): its own message, never the page
 * above, which is for addresses no page answers.
 */
export function RecordNotFound({ message }: { message: string }) {
  return (
    <section className="container not-found">
      <h1>{message}</h1>
      <p className="muted">It may have been deleted, or the address may be mistyped.</p>
      <Link className="button" to="/">
        Back to home
      </Link>
    </section>
  );
}
