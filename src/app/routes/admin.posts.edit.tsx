import { data } from 'react-router';
import { lastDays, pageSeries } from '../../analytics/report.ts';
import { newsletterProgress, requestNewsletter, sendTestNewsletter } from '../../blog/newsletter-delivery.ts';
import { getEditablePost } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { unsavedDraft } from '../../blog/post-revisions.ts';
import { productChoices } from '../../shop/products.ts';
import { listTiers } from '../../shop/tiers.ts';
import { PageViewsCard } from '../admin/AnalyticsChart.tsx';
import { requireAdminUser } from '../admin/guard.server.ts';
import { NewsletterCard, type NewsletterResult } from '../admin/NewsletterCard.tsx';
import { PostEditor } from '../admin/PostEditor.tsx';
import { savePost } from '../admin/post-form.server.ts';
import { getApp } from '../context.ts';
import '../styles/admin.css';
// The preview and the rich editor show the post with the public page's styles.
import '../styles/blog.css';
import { isRefusal } from '../../server/error-status.ts';
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
  const { db, analytics, config } = getApp(context).services;
  const id = postId(params.id);
  const post = await getEditablePost(db, id);
  if (!post) throw data(POST_MESSAGES.notFound, 404);
  const [draft, newsletter, products, tiers, views] = await Promise.all([
    unsavedDraft(db, id),
    newsletterProgress(db, id),
    productChoices(db, config.currency),
    listTiers(db, { activeOnly: true }),
    (await analytics.isOn()) ? pageSeries(db, { postId: id }, lastDays(30)) : null,
  ]);
  return { post, draft, newsletter, products, tiers, views };
}

/** The newsletter card's two buttons; everything else is the editor's save. */
async function newsletterAction(
  context: Route.ActionArgs['context'],
  request: Request,
  id: number,
  intent: string,
): Promise<{ newsletter: NewsletterResult }> {
  const user = requireAdminUser(context, request);
  const { services } = getApp(context);
  try {
    if (intent === 'newsletter-test') {
      await sendTestNewsletter(
        services.db,
        services.mailer,
        { publicUrl: services.publicUrl, currency: services.config.currency },
        id,
        user.email,
      );
      return { newsletter: { ok: true, title: `Test sent to ${user.email}` } };
    }
    await requestNewsletter(services.db, id, user.id);
    return { newsletter: { ok: true, title: 'Newsletter on its way' } };
  } catch (error) {
    if (isRefusal(error)) return { newsletter: { ok: false, title: 'Error', message: error.message } };
    throw error;
  }
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const id = postId(params.id);
  const intent = String((await request.clone().formData()).get('intent') ?? '');
  if (intent === 'newsletter-send' || intent === 'newsletter-test')
    return newsletterAction(context, request, id, intent);
  return savePost(context, request, id);
}

export default function EditPost({ loaderData, actionData }: Route.ComponentProps) {
  const newsletterResult = actionData && 'newsletter' in actionData ? actionData.newsletter : null;
  const editorErrors = actionData && !('newsletter' in actionData) ? actionData : null;
  return (
    <>
      <PostEditor
        post={loaderData.post}
        draft={loaderData.draft}
        products={loaderData.products}
        tiers={loaderData.tiers}
        errors={editorErrors}
      />
      <div className="container admin">
        <NewsletterCard
          progress={loaderData.newsletter}
          postStatus={loaderData.post.status}
          result={newsletterResult}
        />
        <PageViewsCard series={loaderData.views} />
      </div>
    </>
  );
}
