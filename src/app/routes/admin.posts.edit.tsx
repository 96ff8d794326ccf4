import { data } from 'react-router';
import { getEditablePost } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { PostEditor } from '../admin/PostEditor.tsx';
import { savePost } from '../admin/post-form.server.ts';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin.posts.edit';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Edit ${loaderData?.post.title ?? 'post'} — Admin` },
  { name: 'robots', content: 'noindex' },
];

function postId(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw data(POST_MESSAGES.notFound, 404);
  return id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const post = await getEditablePost(getApp(context).services.db, postId(params.id));
  if (!post) throw data(POST_MESSAGES.notFound, 404);
  return { post };
}

export function action({ context, request, params }: Route.ActionArgs) {
  return savePost(context, request, postId(params.id));
}

export default function EditPost({ loaderData, actionData }: Route.ComponentProps) {
  return <PostEditor post={loaderData.post} errors={actionData ?? null} />;
}
