import { Link, redirect, useRouteLoaderData } from 'react-router';
import { BLOG_MESSAGES } from '../../blog/messages.ts';
import { featuredPosts, leadPost, listPosts, oldPathRedirect, postCard } from '../../blog/posts.ts';
import { Carousel } from '../components/blog/Carousel.tsx';
import { HomeHero } from '../components/blog/HomeHero.tsx';
import { LeadPost } from '../components/blog/LeadPost.tsx';
import { NewsletterForm } from '../components/blog/NewsletterForm.tsx';
import { PostBrowser } from '../components/blog/PostBrowser.tsx';
import { FeaturedProducts } from '../components/shop/FeaturedProducts.tsx';
import { loadFeaturedProducts } from '../components/shop/featured-products.server.ts';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import type { loader as rootLoader } from '../root.tsx';
import '../styles/blog.css';
import type { Route } from './+types/home';
import { postListQuery } from './post-list-query.ts';

const CAROUSEL_SIZE = 5;

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = matches[0]?.loaderData as { settings?: { title: string; description: string } } | undefined;
  return [
    { title: root?.settings?.title ?? 'Penstand' },
    { name: 'description', content: root?.settings?.description ?? BLOG_MESSAGES.tagline },
  ];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getApp(context);
  const { db } = app.services;
  // WordPress's default permalinks (/?p=ID, /?page_id=ID) of an imported site land here.
  const { search } = new URL(request.url);
  if (/[?&](p|page_id)=\d/.test(search)) {
    const moved = await oldPathRedirect(db, `/${search}`);
    if (moved) throw redirect(`/post/${moved}`, 301);
  }
  const { q, category, page } = postListQuery(request);
  const [found, featured, featuredProducts] = await Promise.all([
    leadPost(db),
    featuredPosts(db, CAROUSEL_SIZE + 1),
    loadFeaturedProducts(app),
  ]);
  const lead = found && { ...found, post: postCard(found.post) };
  // Each post is shown once: the lead above the carousel is not in it, and neither is in the latest.
  const carousel = featured
    .filter((post) => post.id !== lead?.post.id)
    .slice(0, CAROUSEL_SIZE)
    .map(postCard);
  const shown = [...(lead ? [lead.post.id] : []), ...carousel.map((post) => post.id)];
  const latest = await listPosts(db, { search: q, category, page, limit: 12, excludeIds: shown });
  const posts = latest.posts.map(postCard);
  return {
    lead,
    carousel,
    latest: { posts, pagination: latest.pagination },
    // 'View All Posts (total)' counts every post, the lead and carousel's too.
    total: latest.pagination.total + shown.length,
    q: q ?? '',
    category: category ?? '',
    featuredProducts,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { lead, carousel, latest, total, q, category } = loaderData;
  const settings = useRouteLoaderData<typeof rootLoader>('root')?.settings;
  return (
    <>
      {settings && <HomeHero settings={settings} />}
      <div className="container">
        {lead && <LeadPost post={lead.post} minutes={lead.minutes} />}
        {/* A blog of one post has nothing more to turn through; a blog of none shows the SPEC's placeholder. */}
        {(carousel.length > 0 || !lead) && <Carousel posts={carousel} />}
      </div>
      <PostBrowser
        posts={latest.posts}
        pagination={latest.pagination}
        q={q}
        category={category}
        action="/"
        headingId="latest-heading"
        heading="Latest Posts"
      />
      <div className="container view-all">
        {/* Under a search or a category the count would be of the matches, not of all posts. */}
        <Link className="button button-secondary" to="/blog">
          {q || category ? 'View All Posts' : `View All Posts (${total})`}
        </Link>
      </div>
      <FeaturedProducts products={loaderData.featuredProducts} />
      <section className="container newsletter-box" aria-labelledby="newsletter-box-heading">
        <h2 id="newsletter-box-heading">Stay in the loop</h2>
        <p className="muted">New posts by email, no more than once a week. Unsubscribe any time.</p>
        <NewsletterForm id="newsletter-home" />
      </section>
    </>
  );
}
