import { Link, redirect, useRouteLoaderData } from 'react-router';
import { BLOG_MESSAGES } from '../../blog/messages.ts';
import { latestPosts, leadPost, listPosts, oldPathRedirect, postCard } from '../../blog/posts.ts';
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
  const { q, category } = postListQuery(request);
  const filtered = Boolean(q || category);
  const [found, latest, featuredProducts, newestFiltered] = await Promise.all([
    leadPost(db),
    listPosts(db, { search: q, category, limit: 12 }),
    loadFeaturedProducts(app),
    // Unfiltered, the latest posts are the newest: the carousel takes the first of them.
    filtered ? latestPosts(db, 6) : null,
  ]);
  const posts = latest.posts.map(postCard);
  const newest = newestFiltered?.map(postCard) ?? posts.slice(0, 6);
  // The same objects where the same posts are shown twice: the page's data holds each once.
  const lead = found && {
    ...found,
    post: newest.find((post) => post.id === found.post.id) ?? postCard(found.post),
  };
  // The lead is shown above the carousel: not again inside it.
  const carousel = newest.filter((post) => post.id !== lead?.post.id).slice(0, 5);
  return {
    lead,
    carousel,
    latest: { posts, pagination: latest.pagination },
    q: q ?? '',
    category: category ?? '',
    featuredProducts,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { lead, carousel, latest, q, category } = loaderData;
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
        paginate={false}
        headingId="latest-heading"
        heading="Latest Posts"
      />
      <div className="container view-all">
        {/* Under a search or a category the count would be of the matches, not of all posts. */}
        <Link className="button button-secondary" to="/blog">
          {q || category ? 'View All Posts' : `View All Posts (${latest.pagination.total})`}
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
