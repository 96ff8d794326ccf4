import { Link } from 'react-router';
import { FeaturedProducts } from '../components/shop/FeaturedProducts.tsx';
import { loadFeaturedProducts } from '../components/shop/featured-products.server.ts';
import { getApp } from '../context.ts';
import type { Route } from './+types/home';

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = matches[0]?.loaderData as { settings?: { title: string; description: string } } | undefined;
  return [
    { title: root?.settings?.title ?? 'Penstand' },
    {
      name: 'description',
      content: root?.settings?.description ?? 'Stories from professional life and beyond',
    },
  ];
};

export async function loader({ context }: Route.LoaderArgs) {
  const app = getApp(context);
  const { db } = app.services;
  const posts = await db('posts')
    .where({ status: 'published' })
    .orderBy([
      { column: 'published_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(12)
    .select('id', 'title', 'slug', 'excerpt', 'category');
  return {
    featuredProducts: await loadFeaturedProducts(app),
    posts: posts as { id: number; title: string; slug: string; excerpt: string; category: string }[],
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="hero">
        <div className="container">
          <h1>Welcome</h1>
          <p className="hero-tagline">Stories from professional life and beyond</p>
        </div>
      </section>
      <section className="container" aria-labelledby="latest-heading">
        <h2 id="latest-heading">Latest Posts</h2>
        {loaderData.posts.length === 0 ? (
          <div className="empty-state">
            <h3>No posts found</h3>
            <p>Check back soon for new content!</p>
          </div>
        ) : (
          <ul className="post-grid">
            {loaderData.posts.map((post) => (
              <li key={post.id} className="card">
                <span className="badge">{post.category}</span>
                <h3>
                  <Link to={`/post/${post.slug}`}>{post.title}</Link>
                </h3>
                <p className="muted">{post.excerpt}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <FeaturedProducts products={loaderData.featuredProducts} />
    </>
  );
}
