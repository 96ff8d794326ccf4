import { data, isRouteErrorResponse, Link, redirect, useRouteLoaderData } from 'react-router';
import { postCommentForm } from '../../blog/comment-form.ts';
import { approvedComments, issueFormToken, likeComment, likerOf } from '../../blog/comments.ts';
import { extractHeadings } from '../../blog/markdown.ts';
import { BLOG_MESSAGES, COMMENT_LIMITS } from '../../blog/messages.ts';
import { adjacentPosts, getPost, relatedPosts, slugRedirect } from '../../blog/posts.ts';
import { authorName, preview, readingMinutes, wordCount } from '../../blog/reading.ts';
import { readerAccess } from '../../identity/membership.ts';
import { httpStatusOf } from '../../server/error-status.ts';
import type { BlogSettings } from '../../settings/settings.ts';
import { listTiers } from '../../shop/tiers.ts';
import { AuthorCard } from '../components/blog/AuthorCard.tsx';
import { type CommentResult, Comments, type CommentValues } from '../components/blog/Comments.tsx';
import { PaywallCard, type PaywallData } from '../components/blog/PaywallCard.tsx';
import { PostArticle } from '../components/blog/PostArticle.tsx';
import { PostNav } from '../components/blog/PostNav.tsx';
import { ShareLinks } from '../components/blog/ShareLinks.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import type { RouteHandle } from '../plain-page.ts';
import { withProductCards } from '../product-cards.server.tsx';
import '../styles/blog.css';
import readingFont from '@fontsource-variable/source-serif-4/files/source-serif-4-latin-wght-normal.woff2?url';
import { UploadedImage } from '../components/UploadedImage.tsx';
import type { Route } from './+types/post';

const COMMENTS_PER_PAGE = 50;

/** The reading face (blog.css) is fetched with the page, not after its CSS: the text swaps in early. */
export const links: Route.LinksFunction = () => [
  { rel: 'preload', href: readingFont, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
];

/** Served as plain HTML: a reader needs no React runtime, and the first-load budget has no room for it. */
export const handle: RouteHandle = { hydrate: false, sessionTemplate: true };

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { services, state } = getApp(context);
  const { db } = services;
  const key = params.slug;
  // The session's user is in the template's key (signed in, and the paid tier): see session-templates.ts.
  const reader = readerAccess(state.session.user);
  // The carousel and moderation links use ids: send them to the canonical slug.
  if (/^\d{1,9}$/.test(key)) {
    const byId = await getPost(db, { id: Number(key) });
    if (byId) throw redirect(`/post/${byId.slug}`, 301);
  }
  const post = await getPost(db, { slug: key }, { reader });
  if (!post) {
    const moved = await slugRedirect(db, key);
    if (moved) throw redirect(`/post/${moved}`, 301);
    throw data(null, { status: 404 });
  }
  const search = new URL(request.url).searchParams;
  const commentsBefore = positiveId(search.get('comments'));
  const paywall: PaywallData | null =
    post.locked && post.visibility !== 'public'
      ? {
          visibility: post.visibility,
          signedIn: reader.signedIn,
          tiers: await listTiers(db, { activeOnly: true }),
          stripe: Boolean(services.stripe),
          returnTo: `/post/${post.slug}`,
        }
      : null;
  const [related, adjacent, formToken, comments, contentHtml] = await Promise.all([
    relatedPosts(db, post),
    adjacentPosts(db, post.id),
    issueFormToken(db),
    approvedComments(db, post.id, { limit: COMMENTS_PER_PAGE, before: commentsBefore }),
    withProductCards(db, post.contentHtml, services.config.currency, { fromPost: post.slug }),
  ]);
  // Tells the page view counter which post this page (stored or not) shows.
  const cacheMeta = { 'x-page-cache-view-post': String(post.id) };
  return data(
    {
      post: { ...post, contentHtml },
      paywall,
      related,
      adjacent,
      formToken,
      headings: extractHeadings(post.contentHtml),
      minutes: readingMinutes(post.content),
      words: wordCount(post.content),
      canonical: post.canonicalUrl ?? `${services.publicUrl}/post/${post.slug}`,
      imageUrl: (post.socialImage || post.featuredImageFile || post.featuredImage) ?? null,
      publicUrl: services.publicUrl,
      // Awaited, not streamed: comments streamed in sit in a hidden element until a script moves
      // them, and a post page must be whole without JavaScript (one short index read).
      comments,
      commentsPaged: commentsBefore !== undefined,
      commentsQuery: commentsBefore === undefined ? '' : `comments=${commentsBefore}`,
      // 'Reply' without JavaScript: the reply form opens under this comment.
      replyTo: positiveId(search.get('replyTo')) ?? null,
    },
    { headers: cacheMeta },
  );
}

function positiveId(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : undefined;
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const { db } = services;
  const form = await request.formData();
  if (form.get('intent') === 'like') {
    const commentId = Number(form.get('commentId'));
    if (!Number.isInteger(commentId) || commentId < 1)
      throw data({ message: BLOG_MESSAGES.unknownComment }, { status: 400 });
    const likes = await likeComment(db, commentId, await likerOf(db, state.session.id, state.clientIp));
    if (likes === null) throw data({ message: BLOG_MESSAGES.unknownComment }, { status: 404 });
    return { likes };
  }
  // Every refusal gives the typed values back (a plain form post re-renders the page) and the
  // form token of the first render, so the 2-second trap keeps counting from when the reader came.
  const values = commentValues(form);
  // The reply form the answer goes back to (the main form's has none).
  const replyTo = positiveId(String(form.get('parentId') ?? ''));
  const answer = await postCommentForm(db, state, Object.fromEntries(form));
  if (!answer.ok) {
    const { title, description, formToken, field } = answer;
    return data(
      { ok: false as const, title, description, values, formToken, field, replyTo },
      { status: httpStatusOf(answer.refusal) },
    );
  }
  const { title, description } = answer;
  return { ok: true as const, title, description, formToken: String(form.get('formToken') ?? ''), replyTo };
}

/** The typed values, cut to what the schema accepts, to fill the form again after a refusal. */
function commentValues(form: FormData): CommentValues {
  const text = (name: keyof typeof COMMENT_LIMITS) =>
    String(form.get(name) ?? '').slice(0, COMMENT_LIMITS[name]);
  return {
    author: text('author'),
    email: text('email'),
    content: text('content'),
    notify: form.get('notify') === 'on',
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const site =
    (matches[0]?.loaderData as { settings?: { title: string } } | undefined)?.settings?.title ?? 'Penstand';
  if (!loaderData)
    return [{ title: `${BLOG_MESSAGES.postNotFound} — ${site}` }, { name: 'robots', content: 'noindex' }];
  const { post, canonical, imageUrl, words, publicUrl } = loaderData;
  const image = imageUrl ? (imageUrl.startsWith('http') ? imageUrl : `${publicUrl}${imageUrl}`) : undefined;
  // The writer's search and social overrides, else the post's own title and excerpt.
  const title = post.metaTitle ?? post.title;
  const description = post.metaDescription ?? post.excerpt;
  return [
    { title: post.metaTitle ?? `${post.title} — ${site}` },
    { name: 'description', content: description },
    { name: 'robots', content: 'index, follow' },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:type', content: 'article' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    ...(image ? [{ property: 'og:image', content: image }] : []),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    ...(image ? [{ name: 'twitter:image', content: image }] : []),
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: title,
        description,
        wordCount: words,
        datePublished: post.publishedAt ?? post.createdAt,
        dateModified: post.updatedAt,
        author: { '@type': 'Person', name: authorName(post.author) },
        mainEntityOfPage: canonical,
        ...(image ? { image } : {}),
        keywords: post.tags.join(', '),
      },
    },
  ];
};

export default function PostPage({ loaderData, actionData }: Route.ComponentProps) {
  const { post, related, adjacent, headings, minutes, formToken, canonical, paywall } = loaderData;
  const currency = useCurrency();
  const settings = (useRouteLoaderData('root') as { settings: BlogSettings } | undefined)?.settings;
  return (
    <PostArticle
      post={post}
      headings={headings}
      minutes={minutes}
      paywall={paywall && <PaywallCard paywall={paywall} currency={currency} />}
    >
      {settings && <ShareLinks link={canonical} title={post.title} social={settings.socialLinks} />}
      {settings && !post.author.importedByline && (
        <AuthorCard
          settings={settings}
          name={authorName(post.author)}
          href={post.author.username ? `/author/${encodeURIComponent(post.author.username)}` : undefined}
        />
      )}
      <PostNav previous={adjacent.previous} next={adjacent.next} />
      {related.length > 0 && (
        <section className="related" aria-labelledby="related-heading">
          <h2 id="related-heading">{BLOG_MESSAGES.relatedPosts}</h2>
          <ul className="related-grid">
            {related.map((r) => {
              const src = r.featuredImageFile || r.featuredImage;
              return (
                <li key={r.id} className="card related-card">
                  {src && (
                    <UploadedImage src={src} variant="card" alt="" width={400} height={200} loading="lazy" />
                  )}
                  <h3>
                    <a href={`/post/${r.slug}`}>{r.title}</a>
                  </h3>
                  <p className="muted">{preview(r.excerpt, 100)}</p>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <Comments
        postId={post.id}
        comments={loaderData.comments}
        paged={loaderData.commentsPaged}
        pageQuery={loaderData.commentsQuery}
        replyTo={loaderData.replyTo}
        formToken={formToken}
        result={actionData && 'ok' in actionData ? (actionData as CommentResult) : undefined}
      />
    </PostArticle>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="container not-found">
      <h1>{notFound ? BLOG_MESSAGES.postNotFound : 'Something went wrong'}</h1>
      <p className="muted">
        {notFound ? BLOG_MESSAGES.postNotFoundText : 'This post could not be shown. Please try again.'}
      </p>
      <Link className="button" to="/blog">
        ← Back to Blog
      </Link>
    </section>
  );
}
