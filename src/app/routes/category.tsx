import { data, redirect } from 'react-router';
import { categoryForSlug, listPosts } from '../../blog/posts.ts';
import { slugify } from '../../blog/slug.ts';
import { PostListing, postCount } from '../components/blog/PostListing.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/blog.css';
import { redirectPastLastPage } from '../pagination.server.ts';
import type { Route } from './+types/category';
import { postListQuery } from './post-list-query.ts';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { db } = getApp(context).services;
  const slug = slugify(params.name);
  // One URL per category: /category/Technology answers with /category/technology.
  if (slug !== params.name) {
    const url = new URL(request.url);
    throw redirect(`/category/${slug}${url.search}`, 301);
  }
  const category = await categoryForSlug(db, slug);
  if (!category) throw data(null, { status: 404 });
  const { page } = postListQuery(request);
  const result = await listPosts(db, { category, page, limit: 12 });
  redirectPastLastPage(request, result.pagination);
  return { ...result, category, path: `/category/${slug}` };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site =
    (matches[0]?.loaderData as { settings?: { title: string } } | undefined)?.settings?.title ?? 'Penstand';
  if (!loaderData) return [{ title: `Category not found — ${site}` }, { name: 'robots', content: 'noindex' }];
  return [
    { title: `${loaderData.category} — ${site}` },
    { name: 'description', content: `${loaderData.category} posts, newest first.` },
  ];
};

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, path, posts, pagination } = loaderData;
  return (
    <PostListing
      title={category}
      tagline={`${postCount(pagination.total)} in ${category}`}
      path={path}
      posts={posts}
      pagination={pagination}
    />
  );
}
