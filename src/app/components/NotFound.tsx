import { Link, useLocation } from 'react-router';

/** The 404 page, with the specification's developer-style hint. */
export function NotFound() {
  const { pathname } = useLocation();
  return (
    <section className="container not-found">
      <h1>404 Page Not Found</h1>
      <p className="muted">
        Did you forget to add the page to the router? Nothing is registered at <code>{pathname}</code> — add a
        route for it in <code>src/app/routes.ts</code>.
      </p>
      <Link className="button" to="/">
        Back to home
      </Link>
    </section>
  );
}

/**
 * A record that is not there (an order, a post, a product): its own message, never the route
 * hint above, which is for addresses no page answers.
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
