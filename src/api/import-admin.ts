import Router from '@koa/router';
import { requireAdmin } from '../identity/policy.ts';
import { runImport } from '../import/import.ts';
import { importJobStatus } from '../import/job-status.ts';
import { IMPORT_MESSAGES } from '../import/messages.ts';
import { exportSite } from '../import/penstand.ts';
import { receiveImport } from '../import/uploaded.ts';
import { uploadsArchive } from '../import/uploads-archive.ts';
import { NotFound } from '../kernel/errors.ts';
import { isRefusal } from '../server/error-status.ts';
import type { AppServices } from '../server/services.ts';

/**
 * The admin Import screen's endpoints: POST /api/admin/import (multipart `file`: upload and dry
 * run), GET /api/admin/import/jobs/:id (the import job's progress and report), and GET
 * /api/admin/export (the whole site as the JSON document of `npm run export`, as a download).
 */
export function importAdminRouter(services: AppServices): Router {
  const router = new Router();
  router.post('/admin/import', async (ctx) => {
    requireAdmin(ctx.state);
    const html = ctx.accepts('json', 'html') === 'html';
    const received = await receiveImport(ctx.req, services.privateFiles, (file) =>
      runImport(services, file, { dryRun: true }),
    ).catch((error: unknown) => {
      // Without JavaScript a refusal (too large, no file) is shown on the screen, not as JSON.
      const refused = Object.entries(IMPORT_MESSAGES).find(([, text]) => text === (error as Error).message);
      if (!html || !isRefusal(error) || !refused) throw error;
      return refused[0];
    });
    if (typeof received === 'string') {
      ctx.status = 303;
      ctx.redirect(`/admin/import?refused=${received}`);
      return;
    }
    const { id, state } = received;
    ctx.state.log.info({ uploadId: id, status: state.status }, 'import file uploaded');
    // A form posted without JavaScript goes on to the screen, which shows the preview or the refusal.
    if (html) {
      ctx.status = 303;
      ctx.redirect(`/admin/import?upload=${id}`);
      return;
    }
    ctx.status = state.status === 'preview' ? 201 : 422;
    ctx.body = state.status === 'preview' ? { id, ...state } : { id, ...state, message: state.message };
  });
  router.get('/admin/import/jobs/:id', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const status = await importJobStatus(services.queues.queue('import'), ctx.params.id);
    if (!status) throw new NotFound('No such import job.');
    ctx.body = status;
  });
  router.get('/admin/export', async (ctx) => {
    requireAdmin(ctx.state);
    const document = await exportSite(services.db);
    ctx.set('Cache-Control', 'no-store');
    ctx.set(
      'Content-Disposition',
      `attachment; filename="penstand-export-${document.exported_at.slice(0, 10)}.json"`,
    );
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `${JSON.stringify(document, null, 2)}\n`;
  });
  router.get('/admin/export/uploads', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.set(
      'Content-Disposition',
      `attachment; filename="penstand-uploads-${new Date().toISOString().slice(0, 10)}.tar.gz"`,
    );
    ctx.type = 'application/gzip';
    ctx.body = uploadsArchive(services.uploads);
  });
  return router;
}
