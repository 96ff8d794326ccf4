import { createHash } from 'node:crypto';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import Router from '@koa/router';
import { z } from 'zod';
import { rangeSchema } from '../analytics/report.ts';
import { bookmarkSchema } from '../blog/bookmark-schema.ts';
import { commentSchema } from '../blog/comment-schema.ts';
import { newsletterSchema } from '../blog/newsletter.ts';
import { newsletterAudienceSchema } from '../blog/newsletter-audience.ts';
import { postInputSchema } from '../blog/post-schema.ts';
import {
  passkeyDeleteSchema,
  passkeyLoginSchema,
  passkeyRegisterSchema,
} from '../identity/passkey-schemas.ts';
import {
  changePasswordSchema,
  confirmSchema,
  forgotSchema,
  resendSchema,
  resetSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
  twoFactorLoginSchema,
} from '../identity/schemas.ts';
import { memberQuerySchema } from '../members/admin.ts';
import { compSchema, subscribeSchema } from '../members/member-schema.ts';
import { blogSettingsSchema } from '../settings/settings-schema.ts';
import { checkoutSchema } from '../shop/checkout-schema.ts';
import { discountSchema } from '../shop/discount-schema.ts';
import { productSchema, productUpdateSchema } from '../shop/product-schema.ts';
import { taxRateSchema } from '../shop/tax.ts';
import { tierSchema } from '../shop/tier-schema.ts';
import { addBody, updateBody } from './cart.ts';
import { listQuery as commentsQuery } from './comments.ts';
import { moderateBody, listQuery as moderationQuery, replyBody } from './comments-admin.ts';
import * as R from './openapi-responses.ts';
import {
  cancelBody,
  markPaidBody,
  listQuery as ordersQuery,
  refundBody,
  resetDownloadBody,
  shipBody,
} from './orders-admin.ts';
import { listQuery as postsQuery } from './posts.ts';
import { autosaveBody } from './posts-admin.ts';
import { featuredLimit, listQuery as productsQuery } from './products.ts';

/**
 * The API described as OpenAPI 3.1, from the zod schemas the handlers parse with. One entry per
 * method, path and `?action=`; tests/integration/openapi.test.ts fails when the router answers a
 * route this list lacks, or when a role here differs from tests/support/access-table.ts.
 */

/** Who may call: anyone (a visitor acts on their own cart and orders), any signed-in account, admins. */
export type Role = 'public' | 'user' | 'admin';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Answer = { status: number; schema?: z.ZodType; media?: string; description?: string };
type Endpoint = {
  method: Method;
  path: string;
  action?: string;
  tag: string;
  summary: string;
  role: Role;
  /** A query parameter some of whose values only admins may ask for. */
  adminWhen?: { param: string; description: string };
  query?: z.ZodObject;
  body?: z.ZodType | 'multipart';
  answers: Answer[];
  /** Refusals besides those every endpoint of its role and method can give. */
  errors?: number[];
};

const named = <S extends z.ZodType>(id: string, schema: S) => schema.meta({ id });
const id = z.object({ id: z.string().regex(/^\d+$/).meta({ description: 'A positive integer id.' }) });
const csv = (description: string): Answer => ({ status: 200, media: 'text/csv', description });

// Named once each (a zod id may be given once), used by every endpoint that takes them.
const PostInput = named('PostInput', postInputSchema);
const TwoFactorCode = named('TwoFactorCode', twoFactorCodeSchema);
const ProductUpdate = named('ProductUpdate', productUpdateSchema);
const CartAdd = named('CartAdd', addBody);
const Checkout = named('Checkout', checkoutSchema);
const TierInput = named('TierInput', tierSchema);
const ENDPOINTS: Endpoint[] = [
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Reference',
    summary: 'This document',
    role: 'public',
    answers: [{ status: 200, schema: R.OpenApiDocument }],
  },
  {
    method: 'get',
    path: '/api/health',
    tag: 'Operations',
    summary: 'Whether the database and the queue answer (503 when one does not)',
    role: 'public',
    answers: [
      { status: 200, schema: R.Health },
      { status: 503, schema: R.Health },
    ],
  },

  // Accounts
  ...(
    [
      [undefined, 'admin', 'List every account', R.Users],
      ['me', 'user', 'The signed-in user', R.CurrentUser],
      ['passkeys', 'user', 'The signed-in user’s passkeys', R.Passkeys],
    ] as const
  ).map(
    ([action, role, summary, schema]): Endpoint => ({
      method: 'get',
      path: '/api/users',
      action,
      tag: 'Accounts',
      summary,
      role,
      answers: [{ status: 200, schema }],
    }),
  ),
  ...(
    [
      [
        undefined,
        'public',
        'Sign up: a confirmation code is emailed',
        named('SignUp', signUpSchema),
        201,
        R.SignedUp,
        [429],
      ],
      [
        'confirm',
        'public',
        'Confirm the email address with its code',
        named('Confirm', confirmSchema),
        200,
        R.Message,
        [429],
      ],
      [
        'resend',
        'public',
        'Send the confirmation code again',
        named('Resend', resendSchema),
        200,
        R.Message,
        [429],
      ],
      [
        'login',
        'public',
        'Sign in (401 with a challenge when a second factor is on)',
        named('SignIn', signInSchema),
        200,
        R.SignedIn,
        [429],
      ],
      [
        'login-2fa',
        'public',
        'Finish signing in with the second factor',
        named('SignInCode', twoFactorLoginSchema),
        200,
        R.SignedIn,
        [429],
      ],
      [
        'passkey-login-options',
        'public',
        'Start signing in with a passkey',
        undefined,
        200,
        R.PasskeyOptions,
        [429],
      ],
      [
        'passkey-login',
        'public',
        'Sign in with a passkey',
        named('PasskeyLogin', passkeyLoginSchema),
        200,
        R.SignedIn,
        [429],
      ],
      ['logout', 'public', 'Sign out', undefined, 200, R.Message, []],
      [
        'forgot',
        'public',
        'Send a password reset code (the same answer whether or not the account exists)',
        named('Forgot', forgotSchema),
        200,
        R.Message,
        [429],
      ],
      [
        'reset',
        'public',
        'Set a new password with the reset code',
        named('Reset', resetSchema),
        200,
        R.Message,
        [429],
      ],
      [
        'change-password',
        'user',
        'Change the password',
        named('ChangePassword', changePasswordSchema),
        200,
        R.Message,
        [429],
      ],
      ['2fa-setup', 'user', 'Start turning on two-factor sign-in', undefined, 200, R.TwoFactorSetup, []],
      [
        '2fa-enable',
        'user',
        'Turn on two-factor sign-in with a first code',
        TwoFactorCode,
        200,
        R.TwoFactorEnabled,
        [429],
      ],
      ['2fa-disable', 'user', 'Turn off two-factor sign-in', TwoFactorCode, 200, R.TwoFactorDisabled, [429]],
      ['passkey-register-options', 'user', 'Start adding a passkey', undefined, 200, R.PasskeyOptions, []],
      [
        'passkey-register',
        'user',
        'Add a passkey',
        named('PasskeyRegister', passkeyRegisterSchema),
        201,
        R.PasskeyRegistered,
        [429],
      ],
      [
        'passkey-delete',
        'user',
        'Remove a passkey',
        named('PasskeyDelete', passkeyDeleteSchema),
        200,
        R.Message,
        [404],
      ],
    ] as const
  ).map(
    ([action, role, summary, body, status, schema, errors]): Endpoint => ({
      method: 'post',
      path: '/api/users',
      action,
      tag: 'Accounts',
      summary,
      role,
      body,
      answers:
        action === 'login'
          ? [
              { status, schema },
              { status: 401, schema: R.TwoFactorChallenge, description: 'A second factor is needed.' },
            ]
          : [{ status, schema }],
      errors: [400, ...errors],
    }),
  ),
  {
    method: 'post',
    path: '/api/users/avatar',
    tag: 'Accounts',
    summary: 'Set the avatar (multipart field file: an image under 10MB)',
    role: 'user',
    body: 'multipart',
    answers: [{ status: 201, schema: R.AvatarSaved }],
    errors: [400, 413],
  },

  // Posts
  {
    method: 'get',
    path: '/api/posts',
    tag: 'Posts',
    summary: 'List published posts, or one post by id or slug',
    role: 'public',
    adminWhen: { param: 'status', description: 'status draft, scheduled or all: admins only' },
    query: postsQuery,
    answers: [
      { status: 200, schema: R.PostList, description: 'A page of posts, or { post } with id or slug.' },
      { status: 200, schema: R.PostOne },
    ],
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/api/posts',
    action: 'categories',
    tag: 'Posts',
    summary: 'Categories with published posts',
    role: 'public',
    answers: [{ status: 200, schema: R.Categories }],
  },
  {
    method: 'get',
    path: '/api/posts',
    action: 'tags',
    tag: 'Posts',
    summary: 'Tags of published posts',
    role: 'public',
    answers: [{ status: 200, schema: R.Tags }],
  },
  {
    method: 'post',
    path: '/api/posts',
    tag: 'Posts',
    summary: 'Create a post',
    role: 'admin',
    body: PostInput,
    answers: [{ status: 201, schema: R.PostSaved }],
    errors: [400],
  },
  {
    method: 'put',
    path: '/api/posts',
    tag: 'Posts',
    summary: 'Update a post (?id=); with baseVersion, 409 when someone saved since',
    role: 'admin',
    query: id,
    body: PostInput,
    answers: [{ status: 200, schema: R.PostSaved }],
    errors: [400, 404, 409],
  },
  {
    method: 'delete',
    path: '/api/posts',
    tag: 'Posts',
    summary: 'Delete a post (?id=)',
    role: 'admin',
    query: id,
    answers: [{ status: 200, schema: R.Message }],
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/api/posts/:id',
    action: 'autosave',
    tag: 'Posts',
    summary: 'Keep the editor’s draft copy (blank fields allowed)',
    role: 'admin',
    body: named('Autosave', autosaveBody),
    answers: [{ status: 200, schema: R.Autosaved }],
    errors: [400, 404, 409],
  },
  {
    method: 'get',
    path: '/api/posts/:id/revisions',
    tag: 'Posts',
    summary: 'A post’s revisions, newest first',
    role: 'admin',
    answers: [{ status: 200, schema: R.Revisions }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/posts/:id/revisions/:revisionId',
    action: 'restore',
    tag: 'Posts',
    summary: 'Restore a revision (optional baseVersion)',
    role: 'admin',
    answers: [{ status: 200, schema: R.PostSaved }],
    errors: [400, 404, 409],
  },
  {
    method: 'post',
    path: '/api/posts/:id/preview-link',
    tag: 'Posts',
    summary: 'Make a secret preview link (replaces the post’s earlier one)',
    role: 'admin',
    answers: [{ status: 201, schema: R.PreviewLink }],
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/posts/:id/preview-link',
    tag: 'Posts',
    summary: 'Revoke the preview link',
    role: 'admin',
    answers: [{ status: 200, schema: R.Message }],
    errors: [404],
  },

  // Comments
  {
    method: 'get',
    path: '/api/comments',
    tag: 'Comments',
    summary: 'A post’s approved comments, in pages',
    role: 'public',
    query: commentsQuery,
    answers: [{ status: 200, schema: R.CommentPage }],
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/comments',
    action: 'all',
    tag: 'Comments',
    summary: 'Every comment, for moderation',
    role: 'admin',
    query: moderationQuery,
    answers: [{ status: 200, schema: R.ModerationList }],
  },
  {
    method: 'get',
    path: '/api/comments',
    action: 'pending',
    tag: 'Comments',
    summary: 'Comments waiting for moderation',
    role: 'admin',
    answers: [{ status: 200, schema: R.ModerationList }],
  },
  {
    method: 'post',
    path: '/api/comments',
    tag: 'Comments',
    summary: 'Post a comment or a reply (pending until approved)',
    role: 'public',
    body: named('CommentInput', commentSchema),
    answers: [{ status: 201, schema: R.CommentCreated }],
    errors: [400, 404, 429],
  },
  {
    method: 'post',
    path: '/api/comments',
    action: 'reply',
    tag: 'Comments',
    summary: 'Reply as the admin (?id= the comment answered), published at once',
    role: 'admin',
    query: id,
    body: named('CommentReply', replyBody),
    answers: [{ status: 201, schema: R.Message }],
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/api/comments',
    action: 'moderate',
    tag: 'Comments',
    summary: 'Approve or reject a comment (?id=)',
    role: 'admin',
    query: id,
    body: named('Moderation', moderateBody),
    answers: [{ status: 200, schema: R.Message }],
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/api/comments',
    action: 'like',
    tag: 'Comments',
    summary: 'Like a comment (?id=), once per visitor',
    role: 'public',
    query: id,
    answers: [{ status: 200, schema: R.CommentLikes }],
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/comments',
    tag: 'Comments',
    summary: 'Delete a comment (?id=) for good',
    role: 'admin',
    query: id,
    answers: [{ status: 200, schema: R.Message }],
    errors: [400, 404],
  },

  // Newsletter
  {
    method: 'post',
    path: '/api/newsletter',
    tag: 'Newsletter',
    summary: 'Subscribe (double opt-in; the same answer for new and known addresses)',
    role: 'public',
    body: named('Subscribe', newsletterSchema),
    answers: [{ status: 200, schema: R.Message }],
    errors: [400, 429],
  },
  {
    method: 'get',
    path: '/api/newsletter',
    action: 'export',
    tag: 'Newsletter',
    summary: 'Subscribers as CSV',
    role: 'admin',
    answers: [csv('newsletter-subscribers.csv')],
  },
  {
    method: 'get',
    path: '/api/admin/posts/:id/newsletter',
    tag: 'Newsletter',
    summary: 'A post’s newsletter: its state and counts',
    role: 'admin',
    answers: [{ status: 200, schema: R.NewsletterProgress }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/admin/posts/:id/newsletter',
    tag: 'Newsletter',
    summary:
      'Send the post by email, once: to every confirmed subscriber, free members or paid members (of a tier); ?test=1: to the admin only',
    role: 'admin',
    query: z.object({ test: z.literal('1').optional() }),
    body: named('NewsletterAudience', newsletterAudienceSchema),
    answers: [
      { status: 202, schema: R.NewsletterProgress },
      { status: 200, schema: R.Message, description: 'The test was sent.' },
    ],
    errors: [400, 404, 409],
  },

  // Settings
  {
    method: 'get',
    path: '/api/settings',
    tag: 'Settings',
    summary: 'The blog’s settings',
    role: 'public',
    answers: [{ status: 200, schema: R.Settings }],
  },
  {
    method: 'put',
    path: '/api/settings',
    tag: 'Settings',
    summary: 'Save the blog’s settings',
    role: 'admin',
    body: named('SettingsInput', blogSettingsSchema),
    answers: [{ status: 200, schema: R.SettingsSaved }],
    errors: [400],
  },

  // Admin
  ...(
    [
      [undefined, 'The dashboard', R.Dashboard],
      ['stats', 'The dashboard’s figures', R.DashboardStats],
      ['analytics', 'The dashboard’s analytics', R.DashboardAnalytics],
      ['recent-activity', 'Popular posts and products low in stock', R.RecentActivity],
    ] as const
  ).map(
    ([action, summary, schema]): Endpoint => ({
      method: 'get',
      path: '/api/admin',
      action,
      tag: 'Admin',
      summary,
      role: 'admin',
      answers: [{ status: 200, schema }],
      errors: [400],
    }),
  ),
  {
    method: 'get',
    path: '/api/admin-test',
    tag: 'Admin',
    summary: 'The older admin’s figures',
    role: 'admin',
    answers: [{ status: 200, schema: R.AdminTest }],
  },
  {
    method: 'get',
    path: '/api/admin/audit',
    tag: 'Admin',
    summary: 'The audit log: every admin write (format=csv: all of it as a file)',
    role: 'admin',
    query: z.object({
      actor: z.string().max(200).optional(),
      action: z.string().max(200).optional(),
      page: z
        .string()
        .regex(/^\d{1,6}$/)
        .optional(),
      format: z.literal('csv').optional(),
    }),
    answers: [{ status: 200, schema: R.AuditLog }, csv('audit-log.csv (with format=csv)')],
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/admin/analytics',
    tag: 'Admin',
    summary: 'Views, visitors and sales of a range of days (404 while Analytics is off)',
    role: 'admin',
    query: rangeSchema.extend({
      format: z.literal('csv').optional(),
      table: z.string().optional().meta({ description: 'With format=csv: the report’s table to export.' }),
    }),
    answers: [
      { status: 200, schema: R.AnalyticsReport },
      csv('One of the report’s tables (with format=csv)'),
    ],
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/api/admin/import',
    tag: 'Import and export',
    summary: 'Upload a site to import (multipart field file) and preview it (a dry run)',
    role: 'admin',
    body: 'multipart',
    answers: [
      { status: 201, schema: R.ImportPreview },
      { status: 422, schema: R.ImportPreview, description: 'The file was read but cannot be imported.' },
    ],
    errors: [400, 413],
  },
  {
    method: 'post',
    path: '/api/admin/bookmarks',
    tag: 'Posts',
    summary: 'Read a page’s title, description and image for a bookmark card',
    role: 'admin',
    body: named('BookmarkInput', bookmarkSchema),
    answers: [{ status: 200, schema: R.Bookmark }],
    errors: [400, 422, 429],
  },
  {
    method: 'get',
    path: '/api/admin/import/jobs/:id',
    tag: 'Import and export',
    summary: 'An import job’s progress and report',
    role: 'admin',
    answers: [{ status: 200, schema: R.ImportJob }],
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/export',
    tag: 'Import and export',
    summary: 'The whole site as a JSON file',
    role: 'admin',
    answers: [{ status: 200, schema: R.SiteExport }],
  },
  {
    method: 'get',
    path: '/api/admin/export/uploads',
    tag: 'Import and export',
    summary: 'Every upload as a .tar.gz file',
    role: 'admin',
    answers: [{ status: 200, media: 'application/gzip', description: 'penstand-uploads-DATE.tar.gz' }],
  },
  {
    method: 'post',
    path: '/api/uploads',
    tag: 'Media',
    summary: 'Upload an image (multipart field file, under 10MB)',
    role: 'admin',
    body: 'multipart',
    answers: [{ status: 201, schema: R.Uploaded }],
    errors: [400, 413],
  },

  // Shop
  {
    method: 'get',
    path: '/api/products',
    tag: 'Products',
    summary: 'List active products (empty parameters are left out), or one with ?id=',
    role: 'public',
    adminWhen: { param: 'status', description: 'status inactive or all: admins only' },
    query: productsQuery.extend({ id: z.string().optional() }),
    answers: [
      { status: 200, schema: R.ProductList, description: 'A page of products, or one Product with id.' },
      { status: 200, schema: R.Product },
    ],
    errors: [400, 401, 403, 404],
  },
  {
    method: 'get',
    path: '/api/products',
    action: 'featured',
    tag: 'Products',
    summary: 'Featured products (limit, default 6)',
    role: 'public',
    query: z.object({ limit: featuredLimit }),
    answers: [{ status: 200, schema: R.FeaturedProducts }],
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/products',
    action: 'categories',
    tag: 'Products',
    summary: 'Product categories',
    role: 'public',
    answers: [{ status: 200, schema: R.Categories }],
  },
  {
    method: 'get',
    path: '/api/products/:id',
    tag: 'Products',
    summary: 'One active product',
    role: 'public',
    answers: [{ status: 200, schema: R.Product }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/products',
    tag: 'Products',
    summary: 'Create a product (images replaces the gallery; its first is image)',
    role: 'admin',
    body: named('ProductInput', productSchema),
    answers: [{ status: 201, schema: R.Product }],
    errors: [400],
  },
  ...(['/api/products', '/api/products/:id'] as const).flatMap((path): Endpoint[] => [
    {
      method: 'put',
      path,
      tag: 'Products',
      summary: `Update a product${path === '/api/products' ? ' (?id=)' : ''}: the fields sent`,
      role: 'admin',
      query: path === '/api/products' ? id : undefined,
      body: ProductUpdate,
      answers: [{ status: 200, schema: R.Product }],
      errors: [400, 404],
    },
    {
      method: 'delete',
      path,
      tag: 'Products',
      summary: `Delete a product${path === '/api/products' ? ' (?id=)' : ''} and its files`,
      role: 'admin',
      query: path === '/api/products' ? id : undefined,
      answers: [{ status: 200, schema: R.Message }],
      errors: [404],
    },
  ]),
  {
    method: 'get',
    path: '/api/admin/products/:id/files',
    tag: 'Products',
    summary: 'A downloadable product’s files',
    role: 'admin',
    answers: [{ status: 200, schema: R.ProductFiles }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/admin/products/:id/files',
    tag: 'Products',
    summary: 'Add a file (multipart field file, optional name), kept out of /uploads',
    role: 'admin',
    body: 'multipart',
    answers: [{ status: 201, schema: R.ProductFile }],
    errors: [400, 404, 413],
  },
  {
    method: 'delete',
    path: '/api/admin/products/:id/files/:fileId',
    tag: 'Products',
    summary: 'Remove a file',
    role: 'admin',
    answers: [{ status: 200, schema: R.Message }],
    errors: [404],
  },
  ...(
    [
      [undefined, 'The visitor’s cart', R.Cart],
      ['items', 'The cart’s lines', R.CartItems],
      ['count', 'How many items the cart holds', R.CartCount],
    ] as const
  ).map(
    ([action, summary, schema]): Endpoint => ({
      method: 'get',
      path: '/api/cart',
      action,
      tag: 'Cart',
      summary,
      role: 'public',
      answers: [{ status: 200, schema }],
    }),
  ),
  {
    method: 'get',
    path: '/api/cart/items',
    tag: 'Cart',
    summary: 'The cart’s lines',
    role: 'public',
    answers: [{ status: 200, schema: R.CartItems }],
  },
  ...(
    [
      ['/api/cart', 'add'],
      ['/api/cart/add', undefined],
    ] as const
  ).map(
    ([path, action]): Endpoint => ({
      method: 'post',
      path,
      action,
      tag: 'Cart',
      summary:
        'Add a product, or with variantId one of its variants (a product with options without one: 400 ‘Choose a size’); a guest without a session gets one when the line is taken (the X-Session-Id response header; none with a refusal)',
      role: 'public',
      body: CartAdd,
      answers: [{ status: 201, schema: R.CartAdded }],
      errors: [400, 404, 409],
    }),
  ),
  {
    method: 'put',
    path: '/api/cart',
    tag: 'Cart',
    summary: 'Change a line’s quantity (?id=); under 1 removes it, over the stock is refused',
    role: 'public',
    query: id,
    body: named('CartQuantity', updateBody),
    answers: [{ status: 200, schema: R.CartLineQuantity }],
    errors: [400, 404, 409],
  },
  {
    method: 'delete',
    path: '/api/cart',
    tag: 'Cart',
    summary: 'Remove a line (?id=)',
    role: 'public',
    query: id,
    answers: [{ status: 200, schema: R.Message }],
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/cart',
    action: 'clear',
    tag: 'Cart',
    summary: 'Empty the cart',
    role: 'public',
    answers: [{ status: 200, schema: R.Message }],
  },
  ...([undefined, 'create-checkout'] as const).map(
    (action): Endpoint => ({
      method: 'post',
      path: '/api/orders',
      action,
      tag: 'Orders',
      summary:
        'Check out the visitor’s cart (Idempotency-Key header: a repeat answers the same order with 200)',
      role: 'public',
      body: Checkout,
      answers: [{ status: 201, schema: R.OrderPlaced }],
      errors: [400, 409, 429],
    }),
  ),
  {
    method: 'get',
    path: '/api/orders',
    action: 'my-orders',
    tag: 'Orders',
    summary: 'The visitor’s own orders',
    role: 'public',
    answers: [{ status: 200, schema: R.MyOrders }],
  },
  {
    method: 'get',
    path: '/api/admin/orders',
    tag: 'Orders',
    summary: 'Orders, filtered and in pages',
    role: 'admin',
    query: ordersQuery,
    answers: [{ status: 200, schema: R.AdminOrders }],
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/admin/orders/:id',
    tag: 'Orders',
    summary: 'An order with its lines, events and downloads',
    role: 'admin',
    answers: [{ status: 200, schema: R.AdminOrder }],
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/orders/:id/invoice.pdf',
    tag: 'Orders',
    summary: 'The paid order’s invoice (404 before it is paid)',
    role: 'admin',
    answers: [{ status: 200, media: 'application/pdf', description: 'invoice-2026-0001.pdf' }],
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/orders/:id/credit-notes/:file',
    tag: 'Orders',
    summary: 'A refund’s credit note, by its file name (CN-2026-0001.pdf)',
    role: 'admin',
    answers: [{ status: 200, media: 'application/pdf', description: 'credit-note-CN-2026-0001.pdf' }],
    errors: [404],
  },
  ...(
    [
      ['mark-paid', 'Mark paid (a manual payment’s reference)', named('MarkPaid', markPaidBody)],
      ['refund', 'Refund an amount, optionally restocking', named('Refund', refundBody)],
      ['cancel', 'Cancel', named('Cancel', cancelBody)],
      ['ship', 'Ship with a carrier and tracking number', named('Ship', shipBody)],
      ['deliver', 'Mark delivered', undefined],
      ['resend-downloads', 'Mail the download links again', undefined],
      ['reset-download', 'Reset a download link’s count', named('ResetDownload', resetDownloadBody)],
    ] as const
  ).map(
    ([action, summary, body]): Endpoint => ({
      method: 'post',
      path: '/api/admin/orders/:id',
      action,
      tag: 'Orders',
      summary,
      role: 'admin',
      body,
      answers: [{ status: 200, schema: R.AdminOrder }],
      errors: [400, 404, 409],
    }),
  ),
  {
    method: 'get',
    path: '/api/admin/discounts',
    tag: 'Discounts',
    summary: 'Discount codes with their uses and revenue',
    role: 'admin',
    answers: [{ status: 200, schema: R.Discounts }],
  },
  {
    method: 'post',
    path: '/api/admin/discounts',
    tag: 'Discounts',
    summary: 'Create a discount code (amounts in cents)',
    role: 'admin',
    body: named('DiscountInput', discountSchema),
    answers: [{ status: 201, schema: R.Discount }],
    errors: [400, 409],
  },
  {
    method: 'get',
    path: '/api/admin/discounts/:id',
    tag: 'Discounts',
    summary: 'One discount code',
    role: 'admin',
    answers: [{ status: 200, schema: R.Discount }],
    errors: [404],
  },
  {
    method: 'patch',
    path: '/api/admin/discounts/:id',
    tag: 'Discounts',
    summary: 'Change any of a code’s fields ({ "active": false } deactivates)',
    role: 'admin',
    body: named('DiscountPatch', z.looseObject({}).meta({ description: 'Any of DiscountInput’s fields.' })),
    answers: [{ status: 200, schema: R.Discount }],
    errors: [400, 404],
  },
  {
    method: 'delete',
    path: '/api/admin/discounts/:id',
    tag: 'Discounts',
    summary: 'Delete a code never used (409 otherwise)',
    role: 'admin',
    answers: [{ status: 204, description: 'Deleted.' }],
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/tiers',
    tag: 'Memberships',
    summary: 'Active membership tiers with their monthly and yearly prices',
    role: 'public',
    answers: [{ status: 200, schema: R.Tiers }],
  },
  {
    method: 'get',
    path: '/api/admin/tiers',
    tag: 'Memberships',
    summary: 'Every tier, archived ones too',
    role: 'admin',
    answers: [{ status: 200, schema: R.Tiers }],
  },
  {
    method: 'post',
    path: '/api/admin/tiers',
    tag: 'Memberships',
    summary: 'Create a tier (prices in cents; at most 5 active)',
    role: 'admin',
    body: TierInput,
    answers: [{ status: 201, schema: R.TierOne }],
    errors: [400, 409],
  },
  {
    method: 'put',
    path: '/api/admin/tiers/:id',
    tag: 'Memberships',
    summary: 'Change a tier ({ "active": false } archives it)',
    role: 'admin',
    body: TierInput,
    answers: [{ status: 200, schema: R.TierOne }],
    errors: [400, 404, 409],
  },
  {
    method: 'delete',
    path: '/api/admin/tiers/:id',
    tag: 'Memberships',
    summary: 'Delete a tier nobody ever belonged to (409 otherwise: archive it)',
    role: 'admin',
    answers: [{ status: 204, description: 'Deleted.' }],
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/members',
    action: 'subscribe',
    tag: 'Memberships',
    summary:
      'Subscribe to a tier: Stripe Checkout in subscription mode (409 without Stripe or when paying already)',
    role: 'user',
    body: named('Subscribe', subscribeSchema),
    answers: [{ status: 200, schema: R.PaymentUrl }],
    errors: [400, 404, 409],
  },
  {
    method: 'post',
    path: '/api/members',
    action: 'portal',
    tag: 'Memberships',
    summary: 'Stripe’s billing portal: cancel, change the card, switch monthly and yearly',
    role: 'user',
    answers: [{ status: 200, schema: R.PortalUrl }],
    errors: [409],
  },
  {
    method: 'get',
    path: '/api/admin/members',
    tag: 'Memberships',
    summary: 'Members (by status, tier or words) and the totals with MRR',
    role: 'admin',
    query: memberQuerySchema,
    answers: [{ status: 200, schema: R.Members }],
    errors: [400],
  },
  {
    method: 'get',
    path: '/api/admin/members/:id',
    tag: 'Memberships',
    summary: 'A member’s membership and subscription history',
    role: 'admin',
    answers: [{ status: 200, schema: R.MemberHistory }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/admin/members/:id',
    action: 'comp',
    tag: 'Memberships',
    summary: 'A complimentary membership of a tier, until a date or for good',
    role: 'admin',
    body: named('Comp', compSchema),
    answers: [{ status: 200, schema: R.MembershipOne }],
    errors: [400, 404, 409],
  },
  {
    method: 'post',
    path: '/api/admin/members/:id',
    action: 'end-comp',
    tag: 'Memberships',
    summary:
      'End a complimentary membership now: the member is free (409 without one; a paid subscription is not touched)',
    role: 'admin',
    answers: [{ status: 200, schema: R.MembershipOne }],
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/tax-rates',
    tag: 'Tax',
    summary: 'Tax rates by country (and product category)',
    role: 'admin',
    answers: [{ status: 200, schema: R.TaxRates }],
  },
  {
    method: 'post',
    path: '/api/admin/tax-rates',
    tag: 'Tax',
    summary: 'Add a tax rate (rate in percent; category optional: a reduced rate for one category)',
    role: 'admin',
    body: named('TaxRateInput', taxRateSchema),
    answers: [{ status: 201, schema: R.TaxRate }],
    errors: [400],
  },
  {
    method: 'delete',
    path: '/api/admin/tax-rates/:id',
    tag: 'Tax',
    summary: 'Remove a tax rate (orders keep the tax they charged)',
    role: 'admin',
    answers: [{ status: 204, description: 'Removed.' }],
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/payments/stripe/webhook',
    tag: 'Payments',
    summary: 'Stripe’s signed events (Stripe-Signature header; 404 when card payments are not set up)',
    role: 'public',
    body: named('StripeEvent', z.looseObject({ id: z.string(), type: z.string() })),
    answers: [{ status: 200, schema: R.StripeReceipt }],
    errors: [400, 404],
  },
];

const ERRORS: Record<number, string> = {
  400: 'The input is refused; the message says why.',
  401: 'Not signed in.',
  403: 'Not allowed: not an admin, or a cross-site request with a session cookie.',
  404: 'Not found.',
  409: 'It conflicts with the current state (a stale version, the stock, a used code).',
  413: 'The body is too large.',
  422: 'Well-formed, but it cannot be done as things stand; the message says why.',
  429: 'Too many attempts: wait as Retry-After says.',
};

/** The refusals an endpoint can give: its own, and those of its role and (unsafe) method. */
function errorsOf(e: Endpoint): number[] {
  const implied = [
    ...(e.role === 'public' ? [] : [401]),
    ...(e.role === 'admin' || e.method !== 'get' ? [403] : []),
  ];
  return [...new Set([...(e.errors ?? []), ...implied])].sort((a, b) => a - b);
}

const SECURITY: Record<Role, Record<string, string[]>[]> = {
  public: [{}, { session: [] }, { bearer: [] }, { guestSession: [] }],
  user: [{ session: [] }, { bearer: [] }],
  admin: [{ session: [] }, { bearer: [] }],
};
const RANK: Record<Role, number> = { public: 0, user: 1, admin: 2 };

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${schema.meta()?.id}` });

type Described = z.ZodType | { anyOf: { $ref: string }[] };

function jsonContent(schema: Described, media = 'application/json') {
  return { [media]: { schema } };
}

/** Several named schemas as an anyOf of references (a zod union would flatten unions among them). */
function anyOfRefs(schemas: z.ZodType[]): Described {
  return schemas.length > 1 ? { anyOf: schemas.map(ref) } : schemas[0];
}

/** An endpoint's answers followed by its refusals, each refusal an ApiError. */
function answersOf(e: Endpoint): Answer[] {
  return [
    ...e.answers,
    ...errorsOf(e).map((status) => ({ status, schema: R.ApiError, description: ERRORS[status] })),
  ];
}

/** The responses of one operation: answers of one status and media type are one schema (anyOf). */
function responsesOf(group: Endpoint[]) {
  const responses: Record<string, { description: string; content?: Record<string, { schema: Described }> }> =
    {};
  const byStatus = new Map<string, Answer[]>();
  for (const answer of group.flatMap(answersOf)) {
    const key = `${answer.status} ${answer.media ?? 'application/json'}`;
    byStatus.set(key, [...(byStatus.get(key) ?? []), answer]);
  }
  for (const answers of byStatus.values()) {
    const { status, media } = answers[0];
    const schemas = [...new Set(answers.map((a) => a.schema).filter((s) => s !== undefined))];
    const schema = schemas.length ? anyOfRefs(schemas) : media ? z.string() : undefined;
    const content = schema ? jsonContent(schema, media) : undefined;
    const previous = responses[status];
    responses[status] = previous
      ? { description: previous.description, content: { ...previous.content, ...content } }
      : {
          description:
            answers[0].description ??
            (schemas.length === 1 ? schemas[0].meta()?.description : undefined) ??
            'As each action says.',
          ...(content ? { content } : {}),
        };
  }
  return responses;
}

/** One action's answers by status: references to their schemas, its own answers before refusals. */
function actionResponses(e: Endpoint) {
  const responses: Record<number, object> = {};
  for (const status of new Set(answersOf(e).map((a) => a.status))) {
    const answers = answersOf(e).filter((a) => a.status === status);
    const own = answers.filter((a) => a.schema !== R.ApiError);
    const schemas = (own.length ? own : answers).map((a) => a.schema).filter((s) => s !== undefined);
    responses[status] = schemas.length
      ? schemas.length > 1
        ? { anyOf: schemas.map(ref) }
        : ref(schemas[0])
      : { description: answers[0].description };
  }
  return responses;
}

function pathParams(path: string) {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  return z.object(Object.fromEntries(names.map((name) => [name, z.string()])));
}

/** One operation per method and path; the endpoints told apart by ?action= are listed in x-actions. */
function register(registry: OpenAPIRegistry, group: Endpoint[]) {
  const [first] = group;
  const actions = group.map((e) => e.action).filter((a) => a !== undefined);
  const queryShape: Record<string, z.ZodType> = {};
  for (const e of group) {
    for (const [name, schema] of Object.entries(e.query?.shape ?? {})) {
      // A parameter with a fallback (.catch) takes any value; what it understands is the inner type.
      const understood = schema instanceof z.ZodCatch ? (schema.unwrap() as z.ZodType) : schema;
      queryShape[name] = actions.length || understood !== schema ? understood.optional() : understood;
    }
  }
  if (actions.length) {
    const action = z
      .enum(actions as [string, ...string[]])
      .meta({ description: 'What to do; see x-actions.' });
    queryShape.action = actions.length < group.length ? action.optional() : action;
  }
  const bodies = group.map((e) => e.body).filter((b) => b !== undefined);
  const jsonBodies = [...new Set(bodies.filter((b) => b !== 'multipart'))];
  const body = bodies.includes('multipart')
    ? {
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().meta({ format: 'binary' }),
              name: z.string().optional().meta({ description: 'Product files only: the name buyers see.' }),
            }),
          },
        },
      }
    : jsonBodies.length
      ? { content: jsonContent(anyOfRefs(jsonBodies)) }
      : undefined;
  const least = group.reduce((a, e) => (RANK[e.role] < RANK[a] ? e.role : a), 'admin' as Role);
  const path = first.path.replace(/:(\w+)/g, '{$1}');
  registry.registerPath({
    method: first.method,
    path,
    operationId: `${first.method}${path.replace(/\W+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [first.tag],
    summary: actions.length
      ? `${first.tag}: ${group.map((e) => (e.action ? `action=${e.action}` : 'no action')).join(', ')}`
      : first.summary,
    security: SECURITY[least],
    'x-role': least,
    ...(first.adminWhen ? { 'x-admin-when': first.adminWhen } : {}),
    ...(actions.length
      ? {
          'x-actions': group.map((e) => ({
            action: e.action ?? null,
            summary: e.summary,
            role: e.role,
            ...(e.adminWhen ? { adminWhen: e.adminWhen } : {}),
            ...(e.query ? { query: Object.keys(e.query.shape) } : {}),
            ...(e.body === 'multipart' ? { body: 'multipart' } : e.body ? { body: ref(e.body) } : {}),
            responses: actionResponses(e),
          })),
        }
      : {}),
    request: {
      params: pathParams(first.path),
      query: Object.keys(queryShape).length ? z.object(queryShape) : undefined,
      ...(body ? { body } : {}),
    },
    responses: responsesOf(group),
  });
}

const DESCRIPTION = `Penstand's JSON API under /api: the same services as the site's pages.

Sessions: browsers carry the \`sid\` cookie; API clients send \`Authorization: Bearer <token>\` (the
token from sign-in), and a guest API client its cart's session as \`X-Session-Id\` (given in that
response header by its first cart write that succeeds). A POST, PUT, PATCH or DELETE with a session cookie must
come from the site's own origin (Origin or Referer): a cross-site one is refused with 403. Bearer
requests are exempt. Each operation's \`x-role\` says who may call it: public (anyone; a visitor
acts on their own cart and orders only), user (any signed-in account) or admin. Routes that take
\`?action=\` list each action with its role, body and answers in \`x-actions\` (action null: the
request without the parameter).

Every refusal is JSON \`{ message }\` (ApiError) with a 4xx status; amounts are integer cents.`;

function buildDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'sid',
    description: 'The browser session; unsafe methods must come from the site’s own origin.',
  });
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'The token sign-in answers.',
  });
  registry.registerComponent('securitySchemes', 'guestSession', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Session-Id',
    description: 'A guest API client’s cart session (never a signed-in one).',
  });
  const groups = new Map<string, Endpoint[]>();
  for (const e of ENDPOINTS)
    groups.set(`${e.method} ${e.path}`, [...(groups.get(`${e.method} ${e.path}`) ?? []), e]);
  for (const group of groups.values()) register(registry, group);
  // The named schemas themselves, so that references from anyOf and x-actions find them.
  const named = ENDPOINTS.flatMap((e) => [e.body, ...e.answers.map((a) => a.schema)]).filter(
    (s): s is z.ZodType => typeof s === 'object',
  );
  const schemas = [...new Set([...named, R.ApiError])].map((schema) => ({ type: 'schema' as const, schema }));
  return new OpenApiGeneratorV31([...registry.definitions, ...schemas]).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Penstand API', version: '1', description: DESCRIPTION },
    tags: [...new Set(ENDPOINTS.map((e) => e.tag))].map((name) => ({ name })),
  });
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;

let built: { document: OpenApiDocument; json: string; etag: string } | undefined;

/** The document, built once per process: it changes only with the code. */
export function openApiDocument(): OpenApiDocument {
  return served().document;
}

function served() {
  if (!built) {
    const document = buildDocument();
    const json = JSON.stringify(document);
    built = {
      document,
      json,
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    };
  }
  return built;
}

/** GET /api/openapi.json: public and cacheable (revalidated by its ETag). */
export function openApiRouter(): Router {
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    const { json, etag } = served();
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', etag);
    ctx.type = 'application/json; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.body = json;
  });
  return router;
}
