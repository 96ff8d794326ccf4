import { data } from 'react-router';
import { listPosts, publishedAuthor } from '../../blog/posts.ts';
import { authorName } from '../../blog/reading.ts';
import { AuthorCard } from '../components/blog/AuthorCard.tsx';
import { PostListing, postCount } from '../components/blog/PostListing.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/blog.css';
import { redirectPastLastPage } from '../pagination.server.ts';
import type { Route } from './+types/author';
import { postListQuery } from './post-list-query.ts';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { services } = getApp(context);
  const { db } = services;
  const author = await publishedAuthor(db, params.username);
  if (!author) throw data(null, { status: 404 });
  const { page } = postListQuery(request);
  const [result, settings] = await Promise.all([
    listPosts(db, { authorId: author.id, page, limit: 12 }),
    services.settings.get(),
  ]);
  redirectPastLastPage(request, result.pagination);
  return {
    ...result,
    settings,
    name: authorName(author),
    path: `/author/${encodeURIComponent(author.username ?? '')}`,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site =
    (matches[0]?.loaderData as { settings?: { title: string } } | undefined)?.settings?.title ?? 'Penstand';
  if (!loaderData) return [{ title: `Author not found — ${site}` }, { name: 'robots', content: 'noindex' }];
  return [
    { title: `${loaderData.name} — ${site}` },
    { name: 'description', content: `Posts by ${loaderData.name}, newest first.` },
  ];
};

export default function AuthorPage({ loaderData }: Route.ComponentProps) {
  const { name, settings, path, posts, pagination } = loaderData;
  return (
    <PostListing
      title={name}
      tagline={`${postCount(pagination.total)} by ${name}`}
      intro={<AuthorCard settings={settings} name={name} />}
      path={path}
      posts={posts}
      pagination={pagination}
    />
  );
}
