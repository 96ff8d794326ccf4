import { data, redirect } from 'react-router';
import { latestPosts, oldPathRedirect } from '../../blog/posts.ts';
import { NotFound, PAGE_NOT_FOUND } from '../components/NotFound.tsx';
import { getApp } from '../context.ts';
import type { Route } from './+types/not-found';

export const meta: Route.MetaFunction = () => [
  { title: `${PAGE_NOT_FOUND} — Penstand` },
  { name: 'robots', content: 'noindex' },
];

/**
 * An imported site's old permalink answers 301 to its post. Otherwise a 404 page with the latest
 * posts, so a reader who followed a dead link finds a way on.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { db } = getApp(context).services;
  const moved = await oldPathRedirect(db, new URL(request.url).pathname);
  if (moved) throw redirect(`/post/${moved}`, 301);
  const latest = (await latestPosts(db, 5)).map(({ slug, title }) => ({ slug, title }));
  return data({ latest }, { status: 404 });
}

export default function NotFoundRoute({ loaderData }: Route.ComponentProps) {
  return <NotFound latest={loaderData.latest} />;
}
