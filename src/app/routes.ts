import { index, type RouteConfig, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('_diagnostics/stream', 'routes/diagnostics.stream.tsx'),
  route('admin', 'routes/admin.tsx'),
  route('admin/posts/new', 'routes/admin.posts.new.tsx'),
  route('admin/posts/:id', 'routes/admin.posts.edit.tsx'),
  route('admin/preview', 'routes/admin.preview.tsx'),
  route('admin/products/new', 'routes/admin.products.new.tsx'),
  route('admin/products/:id', 'routes/admin.products.edit.tsx'),
  route('admin/orders/:id', 'routes/admin.orders.detail.tsx'),
  route('admin-debug', 'routes/admin-debug.tsx'),
  route('admin-simple', 'routes/admin-redirect.tsx', { id: 'admin-simple' }),
  route('admin-fixed', 'routes/admin-redirect.tsx', { id: 'admin-fixed' }),
  route('shop', 'routes/shop.tsx'),
  route('shop-fixed', 'routes/shop-fixed.tsx'),
  route('product/:id', 'routes/product.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('orders/lookup', 'routes/orders.lookup.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
