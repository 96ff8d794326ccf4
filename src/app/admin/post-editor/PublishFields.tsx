import type { EditorFields } from '../post-form.ts';
import { SelectField, TextField } from '../TextField.tsx';
import { toLocalInput } from './fields.ts';

const STATUSES = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
  { value: 'scheduled', label: 'Scheduled' },
];

/** Status and the time a scheduled post publishes itself. */
export function PublishFields({ post, error }: { post: EditorFields | null; error?: string }) {
  return (
    <>
      <SelectField name="status" label="Status" defaultValue={post?.status ?? 'draft'} options={STATUSES} />
      <TextField
        name="publishAt"
        label="Publish at"
        type="datetime-local"
        defaultValue={toLocalInput(post?.publishAt ?? null)}
        error={error}
        hint="Used when the status is Scheduled: the post publishes itself at this time."
      />
    </>
  );
}
