import { data, type RouterContextProvider, redirect } from 'react-router';
import { createPost, updatePost } from '../../blog/post-editor.ts';
import { POST_MESSAGES } from '../../blog/post-messages.ts';
import { baseVersionSchema, postInputSchema } from '../../blog/post-schema.ts';
import { Conflict } from '../../kernel/errors.ts';
import { getApp } from '../context.ts';
import { requireAdminUser } from './guard.server.ts';
import { type EditorFields, postFromForm } from './post-form.ts';

export type PostFormErrors = {
  title: string;
  message: string;
  fields: Record<string, string>;
  /** The save was based on a version another tab or admin has replaced. */
  conflict?: boolean;
  /** What the writer sent, shown again in the form. */
  values?: EditorFields;
};

/** Validates and saves; success goes back to the Posts tab with the SPEC's message. */
export async function savePost(
  context: Readonly<RouterContextProvider>,
  request: Request,
  id: number | null,
) {
  const user = requireAdminUser(context, request);
  const { services, state } = getApp(context);
  const form = await request.formData();
  const values = postFromForm(form);
  const parsed = postInputSchema.safeParse(values);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    const required = parsed.error.issues.some((i) => i.message === POST_MESSAGES.requiredFields);
    return data(
      {
        title: POST_MESSAGES.errorTitle,
        message: required ? POST_MESSAGES.requiredFields : parsed.error.issues[0].message,
        fields,
        values,
      } satisfies PostFormErrors,
      400,
    );
  }
  try {
    if (id === null) await createPost(services.db, services.queues, parsed.data, user.id);
    else {
      // The editor always sends the version it opened (or last autosaved): another tab's save wins.
      const saved = await updatePost(services.db, services.queues, id, parsed.data, {
        authorId: user.id,
        baseVersion: baseVersionSchema.safeParse(form.get('baseVersion')).data,
      });
      if (!saved) throw data(POST_MESSAGES.notFound, 404);
    }
  } catch (err) {
    if (err instanceof Response || (err && typeof err === 'object' && 'init' in err)) throw err;
    if (err instanceof Conflict)
      return data(
        {
          title: POST_MESSAGES.errorTitle,
          message: err.message,
          fields: {},
          conflict: true,
          values,
        } satisfies PostFormErrors,
        409,
      );
    state.log.error({ err }, 'saving a post failed');
    return data(
      {
        title: POST_MESSAGES.errorTitle,
        message: POST_MESSAGES.saveFailed,
        fields: {},
        values,
      } satisfies PostFormErrors,
      500,
    );
  }
  return redirect(`/admin?tab=posts&notice=${id === null ? 'post-created' : 'post-updated'}`);
}
