import { data, redirect } from 'react-router';
import { listPosts, tagsForSlug } from '../../blog/posts.ts';
import { PostListing, postCount } from '../components/blog/PostListing.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/blog.css';
import { redirectPastLastPage } from '../pagination.server.ts';
import type { Route } from './+types/tag';
import { postListQuery } from './post-list-query.ts';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  // Ghost's tag pages live at /tag/x/: an imported site's old tag links land here once, on one URL.
  const url = new URL(request.url);
  if (url.pathname.endsWith('/')) throw redirect(`${url.pathname.replace(/\/+$/, '')}${url.search}`, 301);
  const { db } = getApp(context).services;
  const anyTag = await tagsForSlug(db, params.slug);
  if (anyTag.length === 0) throw data(null, { status: 404 });
  const { page } = postListQuery(request);
  const result = await listPosts(db, { anyTag, page, limit: 12 });
  redirectPastLastPage(request, result.pagination);
  return { ...result, tag: anyTag[0], path: `/tag/${params.slug}` };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site =
    (matches[0]?.loaderData as { settings?: { title: string } } | undefined)?.settings?.title ?? 'Penstand';
  if (!loaderData) return [{ title: `Tag not found — ${site}` }, { name: 'robots', content: 'noindex' }];
  return [
    { title: `#${loaderData.tag} — ${site}` },
    { name: 'description', content: `Posts tagged ${loaderData.tag}, newest first.` },
    {
      tagName: 'link',
      rel: 'alternate',
      type: 'application/rss+xml',
      title: `#${loaderData.tag}`,
      href: `${loaderData.path}/rss.xml`,
    },
  ];
};

export default function TagPage({ loaderData }: Route.ComponentProps) {
  const { tag, path, posts, pagination } = loaderData;
  return (
    <PostListing
      title={`#${tag}`}
      tagline={
        <>
          {postCount(pagination.total)} tagged {tag} · <a href={`${path}/rss.xml`}>RSS feed</a>
        </>
      }
      path={path}
      posts={posts}
      pagination={pagination}
    />
  );
}
