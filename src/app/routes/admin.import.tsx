import { useEffect, useState } from 'react';
import { Form, redirect, useRevalidator } from 'react-router';
import { POST_CATEGORIES } from '../../blog/post-schema.ts';
import type { ImportReport } from '../../import/import.ts';
import { type ImportJobStatus, importJobStatus } from '../../import/job-status.ts';
import { IMPORT_MESSAGES, MAX_IMPORT_BYTES } from '../../import/messages.ts';
import { readUploadState } from '../../import/uploaded.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { Notice } from '../admin/Notice.tsx';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin.import';

export const meta: Route.MetaFunction = () => [
  { title: 'Import and export — Admin' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

const POLL_MS = 1500;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { services } = getApp(context);
  const params = new URL(request.url).searchParams;
  const uploadId = params.get('upload');
  const jobId = params.get('job');
  const refused = params.get('refused') ?? '';
  if (Object.hasOwn(IMPORT_MESSAGES, refused))
    return {
      upload: null,
      job: null,
      missing: false,
      refusal: IMPORT_MESSAGES[refused as keyof typeof IMPORT_MESSAGES] as string,
    };
  if (jobId) {
    const job = await importJobStatus(services.queues.queue('import'), jobId.slice(0, 100));
    return { upload: null, job, missing: !job };
  }
  if (uploadId) {
    const upload = await readUploadState(services.privateFiles, uploadId);
    return { upload: upload && { id: uploadId, ...upload }, job: null, missing: !upload };
  }
  return { upload: null, job: null, missing: false };
}

/** 'Import': the uploaded file, with the mapping the writer confirmed, goes to the import job. */
export async function action({ context, request }: Route.ActionArgs) {
  requireAdminUser(context, request);
  const { services } = getApp(context);
  const form = await request.formData();
  const uploadId = String(form.get('upload') ?? '');
  const upload = await readUploadState(services.privateFiles, uploadId);
  if (upload?.status !== 'preview')
    return { ok: false, title: 'Error', message: 'Upload the export file again: this one is gone.' };
  const categoryMap: Record<string, string> = {};
  for (const from of Object.keys(upload.report.categories)) {
    const to = String(form.get(`category:${from}`) ?? '');
    if (!(POST_CATEGORIES as readonly string[]).includes(to))
      return { ok: false, title: 'Error', message: `Choose a Penstand category for '${from}'.` };
    categoryMap[from] = to;
  }
  // The job id is the upload's: a second click on 'Import' finds the job already there.
  const jobId = await services.queues.enqueue(
    'import.run',
    { uploadId, categoryMap, fetchImages: form.get('fetchImages') === 'on' },
    { jobId: `import-${uploadId}`, attempts: 1 },
  );
  throw redirect(`/admin/import?job=${jobId}`);
}

function UploadForm() {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="card admin-import-form"
      method="post"
      action="/api/admin/import"
      encType="multipart/form-data"
      onSubmit={(event) => {
        const file = (event.currentTarget.elements.namedItem('file') as HTMLInputElement).files?.[0];
        if (file && file.size > MAX_IMPORT_BYTES) {
          event.preventDefault();
          setError(IMPORT_MESSAGES.tooLarge);
        }
      }}
    >
      <h2>Import</h2>
      <p>
        A WordPress export (WXR, .xml), a Ghost export (.json), a Penstand export (.json), the .zip a Substack
        or Medium export downloads as, or a member list (.csv: Ghost's members export, Substack's subscriber
        list, or any list with an email column), up to 200 MB.
      </p>
      <Notice result={error ? { ok: false, title: 'Error', message: error } : null} />
      <div className="field">
        <label htmlFor="import-file">Export file</label>
        <input id="import-file" name="file" type="file" accept=".xml,.json,.zip,.csv" required />
      </div>
      <button className="button" type="submit">
        Upload and preview
      </button>
    </form>
  );
}

function Counts({ report }: { report: ImportReport }) {
  if (report.format === 'members')
    return (
      <dl className="admin-import-counts">
        <dt>Rows</dt>
        <dd>{report.total}</dd>
        <dt>Subscribers</dt>
        <dd>{(report.subscribers?.added ?? 0) + (report.subscribers?.merged ?? 0)}</dd>
      </dl>
    );
  return (
    <dl className="admin-import-counts">
      <dt>Posts</dt>
      <dd>{report.contents.posts}</dd>
      <dt>Pages</dt>
      <dd>{report.contents.pages}</dd>
      <dt>Comments</dt>
      <dd>{report.comments.created + report.comments.unchanged}</dd>
      <dt>Tags</dt>
      <dd>{report.contents.tags}</dd>
      {report.contents.drafts !== undefined ? (
        <>
          <dt>Drafts</dt>
          <dd>{report.contents.drafts}</dd>
        </>
      ) : null}
      {report.contents.members ? (
        <>
          <dt>Members' posts (for signed-in members)</dt>
          <dd>{report.contents.members}</dd>
        </>
      ) : null}
      {report.contents.paid ? (
        <>
          <dt>Paid posts (for paying members)</dt>
          <dd>{report.contents.paid}</dd>
        </>
      ) : null}
      {report.subscribers ? (
        <>
          <dt>Subscribers</dt>
          <dd>{report.subscribers.added + report.subscribers.merged}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** What happens to a Substack export's subscriber list, and to its paid posts. */
function Notes({ report }: { report: ImportReport }) {
  const { subscribers, members, contents } = report;
  return (
    <>
      {contents.paid ? (
        <p>
          Paid posts: {contents.paid}, for paying members only (visibility paid; the free preview ends at
          Substack's paywall).
        </p>
      ) : null}
      {subscribers ? (
        <p>
          Subscribers: {subscribers.added} new (confirmed: they opted in on the old site),{' '}
          {subscribers.merged} already here; left out: {subscribers.optedOut} with emails turned off,{' '}
          {subscribers.deleted} deleted, {subscribers.invalid} not addresses.
        </p>
      ) : null}
      {members ? (
        <p>
          Members: {members.created} new accounts (they sign in by resetting their password),{' '}
          {members.existing} already here; {members.comped} comped, {members.linked} linked to their Stripe
          subscription, {members.notPlaced} paying or comped there left free (the warnings say why).
        </p>
      ) : null}
    </>
  );
}

function Preview({ id, fileName, report }: { id: string; fileName: string; report: ImportReport }) {
  const categories = Object.entries(report.categories);
  return (
    <Form method="post" className="card admin-import-form">
      <h2>{`Preview of ${fileName}`}</h2>
      <Counts report={report} />
      <Notes report={report} />
      {report.format === 'members' ? null : (
        <p>
          {report.skipped.length} of {report.total} items will be skipped (attachments, menus, threads and
          other non-posts).
        </p>
      )}
      <input type="hidden" name="upload" value={id} />
      {categories.length ? (
        <fieldset>
          <legend>Categories (old → Penstand)</legend>
          {categories.map(([from, { category, posts }], index) => (
            <div className="field" key={from}>
              <label htmlFor={`category-${index}`}>
                {from} ({posts} post{posts === 1 ? '' : 's'})
              </label>
              <select id={`category-${index}`} name={`category:${from}`} defaultValue={category}>
                {POST_CATEGORIES.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      ) : null}
      {report.format === 'members' ? null : (
        <div className="field">
          <label>
            <input type="checkbox" name="fetchImages" /> Copy images into Penstand
          </label>
        </div>
      )}
      <button className="button" type="submit">
        Import
      </button>
    </Form>
  );
}

function Report({ report }: { report: ImportReport }) {
  return (
    <>
      {report.format === 'members' ? (
        <Counts report={report} />
      ) : (
        <dl className="admin-import-counts">
          <dt>Created</dt>
          <dd>{report.created}</dd>
          <dt>Updated</dt>
          <dd>{report.updated}</dd>
          <dt>Unchanged</dt>
          <dd>{report.unchanged}</dd>
          <dt>Skipped</dt>
          <dd>{report.skipped.length}</dd>
          <dt>Comments created</dt>
          <dd>{report.comments.created}</dd>
        </dl>
      )}
      <Notes report={report} />
      {report.skipped.length ? (
        <details>
          <summary>Skipped items</summary>
          <ul>
            {report.skipped.map((s) => (
              <li key={s.sourceId}>
                {s.title || s.sourceId}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <h3>Warnings ({report.warnings.length})</h3>
      {report.warnings.length ? (
        <ul className="admin-import-warnings">
          {report.warnings.map((w, i) => (
            // Warnings may repeat word for word; their order is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: a static list, never reordered
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function Progress({ job }: { job: ImportJobStatus }) {
  const revalidator = useRevalidator();
  const running = job.state === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, revalidator]);
  return (
    <section className="card admin-import-form" aria-labelledby="import-progress">
      <h2 id="import-progress">
        {running ? 'Importing…' : job.state === 'done' ? 'Import finished' : 'Import failed'}
      </h2>
      <label htmlFor="import-progress-bar">
        {job.done} / {job.total} items
      </label>
      <progress id="import-progress-bar" max={Math.max(job.total, 1)} value={job.done} />
      {running ? <p className="muted">This page updates by itself (without JavaScript: reload it).</p> : null}
      {job.message ? <Notice result={{ ok: false, title: 'Error', message: job.message }} /> : null}
      {job.report ? <Report report={job.report} /> : null}
    </section>
  );
}

export default function AdminImport({ loaderData, actionData }: Route.ComponentProps) {
  const { upload, job, missing } = loaderData;
  const refusal = 'refusal' in loaderData ? loaderData.refusal : null;
  return (
    <div className="container admin admin-editor">
      <p>
        <a href="/admin?tab=settings">← Back to admin</a>
      </p>
      <h1>Import and export</h1>
      <Notice
        result={
          actionData ??
          (missing
            ? { ok: false, title: 'Error', message: 'This import is gone. Upload the file again.' }
            : upload?.status === 'refused'
              ? { ok: false, title: 'Error', message: upload.message }
              : refusal
                ? { ok: false, title: 'Error', message: refusal }
                : null)
        }
      />
      {job ? <Progress job={job} /> : null}
      {upload?.status === 'preview' ? (
        <Preview id={upload.id} fileName={upload.fileName} report={upload.report} />
      ) : null}
      {job?.state === 'running' || upload?.status === 'preview' ? null : <UploadForm />}
      <section className="card admin-import-form" aria-labelledby="export-heading">
        <h2 id="export-heading">Export</h2>
        <p>
          Everything as one JSON document: settings, posts, tags, comments, products, subscribers and orders.
        </p>
        <a className="button button-secondary" href="/api/admin/export" download>
          Export
        </a>
      </section>
    </div>
  );
}
