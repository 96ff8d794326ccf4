import { NotFound } from '../components/NotFound.tsx';
import type { Route } from './+types/not-found';

export const meta: Route.MetaFunction = () => [
  { title: '404 Page Not Found' },
  { name: 'robots', content: 'noindex' },
];

export function loader() {
  throw new Response('Not Found', { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
