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
