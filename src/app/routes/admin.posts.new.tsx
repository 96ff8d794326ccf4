import { productChoices } from '../../shop/products.ts';
import { listTiers } from '../../shop/tiers.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { PostEditor } from '../admin/PostEditor.tsx';
import { savePost } from '../admin/post-form.server.ts';
import { getApp } from '../context.ts';
import '../styles/admin.css';
// The preview and the rich editor show the post with the public page's styles.
import '../styles/blog.css';
import type { Route } from './+types/admin.posts.new';

export const meta: Route.MetaFunction = () => [
  { title: 'New Post — Admin' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { db, config } = getApp(context).services;
  const [products, tiers] = await Promise.all([
    productChoices(db, config.currency),
    listTiers(db, { activeOnly: true }),
  ]);
  return { products, tiers };
}

export function action({ context, request }: Route.ActionArgs) {
  return savePost(context, request, null);
}

export default function NewPost({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <PostEditor
      post={null}
      products={loaderData.products}
      tiers={loaderData.tiers}
      errors={actionData ?? null}
    />
  );
}
