import { data } from 'react-router';
import { NotFound } from '../components/NotFound.tsx';
import type { Route } from './+types/not-found';

export const meta: Route.MetaFunction = () => [
  { title: '404 Page Not Found' },
  { name: 'robots', content: 'noindex' },
];

/** No message: the root error boundary shows the route hint for an unknown path, not a record's. */
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
