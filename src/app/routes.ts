import { index, type RouteConfig, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('_diagnostics/stream', 'routes/diagnostics.stream.tsx'),
  route('blog', 'routes/blog.tsx'),
  route('post/:slug', 'routes/post.tsx'),
  route('about', 'routes/about.tsx'),
  route('brand-showcase', 'routes/brand-showcase.tsx'),
  route('newsletter', 'routes/newsletter.tsx'),
  route('newsletter/confirm', 'routes/newsletter.confirm.tsx'),
  route('rss.xml', 'routes/rss.xml.ts'),
  route('podcast.xml', 'routes/podcast.xml.ts'),
  route('sitemap.xml', 'routes/sitemap.xml.ts'),
  route('robots.txt', 'routes/robots.txt.ts'),
  route('shop', 'routes/shop.tsx'),
  route('shop-fixed', 'routes/shop-fixed.tsx'),
  route('product/:id', 'routes/product.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('orders/lookup', 'routes/orders.lookup.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
