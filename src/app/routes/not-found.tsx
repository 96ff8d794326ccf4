import { data, redirect } from 'react-router';
import { oldPathRedirect } from '../../blog/posts.ts';
import { NotFound } from '../components/NotFound.tsx';
import { getApp } from '../context.ts';
import type { Route } from './+types/not-found';

export const meta: Route.MetaFunction = () => [
  { title: '404 Page Not Found' },
  { name: 'robots', content: 'noindex' },
];

/**
 * An imported site's old permalink answers 301 to its post. Otherwise no message: the root
 * error boundary shows the route hint for an unknown path, not a record's.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const moved = await oldPathRedirect(getApp(context).services.db, new URL(request.url).pathname);
  if (moved) throw redirect(`/post/${moved}`, 301);
  throw data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
