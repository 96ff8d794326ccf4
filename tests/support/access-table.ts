/**
 * Who may use each route: one row per method and path (more rows when a query changes the
 * rule). The role-matrix test fails when the app has a route this table does not list.
 *
 * Every row is requested as anonymous, user, other (a second signed-in user) and admin.
 * public: anyone; user: any signed-in account; admin: the admin role only;
 * owner: only the session that owns the resource (`owns`: the `user` account's cart line,
 * `{line}` in the sample, or order, `{order}`): everyone else gets 404, as if it did not
 * exist, and it stays unchanged; a list answers them without it.
 * `sample` is the concrete URL the test requests (ids of seeded rows, queries), `body` the JSON it sends.
 */
export type Access = 'public' | 'user' | 'admin' | 'owner';
export type AccessRow = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  access: Access;
  sample?: string;
  /** For owner rows: the `user` account's resource the request is about. */
  owns?: 'line' | 'order';
  body?: Record<string, unknown>;
};

export const API_ACCESS: AccessRow[] = [
  { method: 'GET', path: '/api/health', access: 'public' },
  { method: 'GET', path: '/api/users', access: 'admin' },
  { method: 'GET', path: '/api/users', access: 'user', sample: '/api/users?action=me' },
  { method: 'POST', path: '/api/users', access: 'public', sample: '/api/users?action=resend' },
  { method: 'GET', path: '/api/users', access: 'user', sample: '/api/users?action=passkeys' },
  {
    method: 'POST',
    path: '/api/users',
    access: 'user',
    sample: '/api/users?action=passkey-register-options',
  },
  { method: 'POST', path: '/api/users', access: 'user', sample: '/api/users?action=passkey-register' },
  {
    method: 'POST',
    path: '/api/users',
    access: 'user',
    sample: '/api/users?action=passkey-delete',
    body: { id: 'not-a-passkey' },
  },
  { method: 'POST', path: '/api/users', access: 'public', sample: '/api/users?action=passkey-login-options' },
  { method: 'POST', path: '/api/users', access: 'public', sample: '/api/users?action=passkey-login' },
  { method: 'GET', path: '/api/comments', access: 'public', sample: '/api/comments?postId=1' },
  { method: 'GET', path: '/api/comments', access: 'admin', sample: '/api/comments?action=all' },
  { method: 'GET', path: '/api/comments', access: 'admin', sample: '/api/comments?action=pending' },
  { method: 'PUT', path: '/api/comments', access: 'admin', sample: '/api/comments?id=1&action=moderate' },
  { method: 'PUT', path: '/api/comments', access: 'public', sample: '/api/comments?id=1&action=like' },
  { method: 'DELETE', path: '/api/comments', access: 'admin', sample: '/api/comments?id=999999' },
  { method: 'POST', path: '/api/comments', access: 'public' },
  { method: 'GET', path: '/api/newsletter', access: 'admin', sample: '/api/newsletter?action=export' },
  { method: 'POST', path: '/api/newsletter', access: 'public' },
  {
    method: 'GET',
    path: '/api/admin/posts/:id/newsletter',
    access: 'admin',
    sample: '/api/admin/posts/1/newsletter',
  },
  {
    method: 'POST',
    path: '/api/admin/posts/:id/newsletter',
    access: 'admin',
    sample: '/api/admin/posts/999999/newsletter?test=1',
  },
  { method: 'GET', path: '/api/posts', access: 'public' },
  { method: 'GET', path: '/api/posts', access: 'admin', sample: '/api/posts?status=draft' },
  { method: 'POST', path: '/api/posts', access: 'admin' },
  { method: 'PUT', path: '/api/posts', access: 'admin', sample: '/api/posts?id=999999' },
  { method: 'DELETE', path: '/api/posts', access: 'admin', sample: '/api/posts?id=999999' },
  { method: 'GET', path: '/api/settings', access: 'public' },
  { method: 'PUT', path: '/api/settings', access: 'admin' },
  { method: 'GET', path: '/api/admin', access: 'admin' },
  { method: 'GET', path: '/api/admin-test', access: 'admin' },
  { method: 'GET', path: '/api/admin/audit', access: 'admin' },
  {
    method: 'GET',
    path: '/api/admin/orders',
    access: 'admin',
    sample: '/api/admin/orders?paymentStatus=paid',
  },
  { method: 'GET', path: '/api/admin/orders/:id', access: 'admin', sample: '/api/admin/orders/999999' },
  {
    method: 'POST',
    path: '/api/admin/orders/:id',
    access: 'admin',
    sample: '/api/admin/orders/999999?action=mark-paid',
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id',
    access: 'admin',
    sample: '/api/admin/orders/999999?action=resend-downloads',
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id',
    access: 'admin',
    sample: '/api/admin/orders/999999?action=ship',
    body: { carrier: 'UPS', trackingNumber: '1Z999' },
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id',
    access: 'admin',
    sample: '/api/admin/orders/999999?action=deliver',
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id',
    access: 'admin',
    sample: '/api/admin/orders/999999?action=reset-download',
    body: { grantId: 1 },
  },
  // Stripe's signed events; without keys (this table's app) the endpoint answers 404.
  { method: 'POST', path: '/api/payments/stripe/webhook', access: 'public' },
  { method: 'POST', path: '/api/uploads', access: 'admin' },
  { method: 'GET', path: '/api/products', access: 'public' },
  { method: 'GET', path: '/api/products/:id', access: 'public', sample: '/api/products/1' },
  { method: 'POST', path: '/api/products', access: 'admin' },
  { method: 'PUT', path: '/api/products', access: 'admin', sample: '/api/products?id=999999' },
  { method: 'PUT', path: '/api/products/:id', access: 'admin', sample: '/api/products/999999' },
  { method: 'DELETE', path: '/api/products', access: 'admin', sample: '/api/products?id=999999' },
  { method: 'DELETE', path: '/api/products/:id', access: 'admin', sample: '/api/products/999999' },
  {
    method: 'GET',
    path: '/api/admin/products/:id/files',
    access: 'admin',
    sample: '/api/admin/products/1/files',
  },
  {
    method: 'POST',
    path: '/api/admin/products/:id/files',
    access: 'admin',
    sample: '/api/admin/products/1/files',
  },
  {
    method: 'DELETE',
    path: '/api/admin/products/:id/files/:fileId',
    access: 'admin',
    sample: '/api/admin/products/1/files/999999',
  },
  { method: 'GET', path: '/api/cart', access: 'public' },
  { method: 'GET', path: '/api/cart', access: 'owner', owns: 'line' },
  { method: 'GET', path: '/api/cart/items', access: 'owner', owns: 'line' },
  { method: 'GET', path: '/api/cart/items', access: 'public' },
  { method: 'POST', path: '/api/cart', access: 'public', sample: '/api/cart?action=add' },
  { method: 'POST', path: '/api/cart/add', access: 'public' },
  { method: 'PUT', path: '/api/cart', access: 'public', sample: '/api/cart?id=999999' },
  {
    method: 'PUT',
    path: '/api/cart',
    access: 'owner',
    sample: '/api/cart?id={line}',
    owns: 'line',
    body: { quantity: 3 },
  },
  { method: 'DELETE', path: '/api/cart', access: 'owner', sample: '/api/cart?id={line}', owns: 'line' },
  { method: 'DELETE', path: '/api/cart', access: 'public', sample: '/api/cart?action=clear' },
  { method: 'POST', path: '/api/orders', access: 'public' },
  { method: 'GET', path: '/api/orders', access: 'public', sample: '/api/orders?action=my-orders' },
  {
    method: 'GET',
    path: '/api/orders',
    access: 'owner',
    sample: '/api/orders?action=my-orders',
    owns: 'order',
  },
];

export const PAGE_ACCESS: { path: string; access: Access; sample?: string }[] = [
  { path: '/', access: 'public' },
  { path: '/_diagnostics/stream', access: 'public', sample: '/_diagnostics/stream?delay=0' },
  { path: '/admin', access: 'admin' },
  { path: '/admin/posts/new', access: 'admin' },
  { path: '/admin/posts/:id', access: 'admin', sample: '/admin/posts/1' },
  { path: '/admin/preview', access: 'admin' },
  { path: '/admin/products/new', access: 'admin' },
  { path: '/admin/products/:id', access: 'admin', sample: '/admin/products/1' },
  { path: '/admin/orders/:id', access: 'admin', sample: '/admin/orders/{order}' },
  { path: '/admin-debug', access: 'admin' },
  { path: '/admin-simple', access: 'public' },
  { path: '/admin-fixed', access: 'public' },
  { path: '/blog', access: 'public' },
  { path: '/post/:slug', access: 'public', sample: '/post/building-a-calm-home-office' },
  { path: '/about', access: 'public' },
  { path: '/brand-showcase', access: 'public' },
  { path: '/newsletter', access: 'public' },
  { path: '/newsletter/confirm', access: 'public' },
  { path: '/newsletter/unsubscribe', access: 'public' },
  { path: '/rss.xml', access: 'public' },
  { path: '/podcast.xml', access: 'public' },
  { path: '/podcast-cover.png', access: 'public' },
  { path: '/sitemap.xml', access: 'public' },
  { path: '/robots.txt', access: 'public' },
  { path: '/account', access: 'user' },
  { path: '/login', access: 'public' },
  { path: '/logout', access: 'public' },
  { path: '/amplify-login', access: 'public' },
  { path: '/signup', access: 'public' },
  { path: '/amplify-signup', access: 'public' },
  { path: '/confirm-email', access: 'public' },
  { path: '/amplify-confirm-email', access: 'public' },
  { path: '/forgot-password', access: 'public' },
  { path: '/amplify-forgot-password', access: 'public' },
  { path: '/amplify-demo', access: 'public' },
  { path: '/email-debug', access: 'public' },
  { path: '/shop', access: 'public' },
  { path: '/shop-fixed', access: 'public' },
  { path: '/product/:id', access: 'public', sample: '/product/1' },
  { path: '/cart', access: 'public' },
  { path: '/checkout', access: 'public' },
  { path: '/orders/lookup', access: 'public' },
  // Anyone may ask; only the order's session, account or link key sees it (others get 404: tests/integration/payments-manual.test.ts).
  { path: '/orders/:id', access: 'public', sample: '/orders/999999' },
  // The token is the permission (tests/integration/downloads.test.ts): a wrong one is 404 for everyone.
  { path: '/downloads/:token', access: 'public', sample: `/downloads/1.${'A'.repeat(32)}` },
  { path: '/*', access: 'public', sample: '/no-such-page' },
];
