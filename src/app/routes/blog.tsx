import { listPosts } from '../../blog/posts.ts';
import { PostBrowser } from '../components/blog/PostBrowser.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/blog.css';
import { redirectPastLastPage } from '../pagination.server.ts';
import type { Route } from './+types/blog';
import { postListQuery } from './post-list-query.ts';

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = matches[0]?.loaderData as { settings?: { title: string } } | undefined;
  return [
    { title: `All posts — ${root?.settings?.title ?? 'Penstand'}` },
    { name: 'description', content: 'Every published post, newest first.' },
  ];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const { q, category, page } = postListQuery(request);
  const result = await listPosts(getApp(context).services.db, { search: q, category, page, limit: 12 });
  redirectPastLastPage(request, result.pagination);
  return { ...result, q: q ?? '', category: category ?? '' };
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="hero hero-small">
        <div className="container">
          <h1>All Posts</h1>
          <p className="hero-tagline">{loaderData.pagination.total} posts and counting</p>
        </div>
      </section>
      <PostBrowser
        posts={loaderData.posts}
        pagination={loaderData.pagination}
        q={loaderData.q}
        category={loaderData.category}
        action="/blog"
        headingId="all-posts-heading"
        heading="Posts"
      />
    </>
  );
}
