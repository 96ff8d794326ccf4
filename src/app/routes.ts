import { index, type RouteConfig, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('_diagnostics/stream', 'routes/diagnostics.stream.tsx'),
  route('shop', 'routes/shop.tsx'),
  route('shop-fixed', 'routes/shop-fixed.tsx'),
  route('product/:id', 'routes/product.tsx'),
  route('cart', 'routes/cart.tsx'),
  route('checkout', 'routes/checkout.tsx'),
  route('orders/lookup', 'routes/orders.lookup.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
