import { data, isRouteErrorResponse, Link } from 'react-router';
import { extractHeadings } from '../../blog/markdown.ts';
import { FULL_ACCESS } from '../../blog/paywall.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { getPost } from '../../blog/posts.ts';
import { previewPostId } from '../../blog/preview-links.ts';
import { readingMinutes } from '../../blog/reading.ts';
import { PostArticle } from '../components/blog/PostArticle.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import { withProductCards } from '../product-cards.server.tsx';
import '../styles/blog.css';
import type { Route } from './+types/preview';

/** Plain HTML like the post page it previews (decision 007). */
export const handle: RouteHandle = { hydrate: false };

/** For whoever holds the link, never for a shared cache or a search engine. */
const PRIVATE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' };

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config } = getApp(context).services;
  const postId = await previewPostId(db, params.token);
  const post =
    postId === null
      ? null
      : await getPost(db, { id: postId }, { includeUnpublished: true, reader: FULL_ACCESS });
  if (!post) throw data(null, { status: 404, headers: PRIVATE });
  const contentHtml = await withProductCards(db, post.contentHtml, config.currency);
  return data(
    {
      post: { ...post, contentHtml },
      headings: extractHeadings(post.contentHtml),
      minutes: readingMinutes(post.content),
    },
    { headers: PRIVATE },
  );
}

export function headers({ loaderHeaders, errorHeaders }: Route.HeadersArgs) {
  return errorHeaders ?? loaderHeaders;
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData
      ? `${POST_MESSAGES.previewBanner}: ${loaderData.post.title}`
      : POST_MESSAGES.previewNotFound,
  },
  { name: 'robots', content: 'noindex, nofollow' },
];

export default function PreviewPage({ loaderData }: Route.ComponentProps) {
  const { post, headings, minutes } = loaderData;
  return (
    <PostArticle
      post={post}
      headings={headings}
      minutes={minutes}
      banner={
        <p className="preview-banner" role="note">
          <strong>{POST_MESSAGES.previewBanner}</strong> This post is{' '}
          {post.status === 'published' ? 'published; this is how it reads now' : 'not published yet'}. Please
          do not share this link.
        </p>
      }
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="container not-found">
      <h1>{notFound ? POST_MESSAGES.previewNotFound : 'Something went wrong'}</h1>
      <Link className="button" to="/blog">
        ← Back to Blog
      </Link>
    </section>
  );
}
