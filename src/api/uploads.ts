import Router from '@koa/router';
import { requireAdmin } from '../identity/policy.ts';
import { recordUploadSize } from '../media/upload-sizes.ts';
import { receiveUpload } from '../media/uploads.ts';
import type { AppServices } from '../server/services.ts';

/** POST /api/uploads (admins): multipart field `file`, an image; answers {url}. */
export function uploadsRouter(services: AppServices): Router {
  const router = new Router();
  router.post('/uploads', async (ctx) => {
    requireAdmin(ctx.state);
    const stored = await receiveUpload(ctx.req, services.uploads);
    if (stored.size) await recordUploadSize(services.db, stored.fileName, stored.size);
    await services.queues.enqueue(
      'media.variants',
      { fileName: stored.fileName },
      { jobId: `variants-${stored.fileName}` },
    );
    ctx.state.log.info(
      { file: stored.fileName, bytes: stored.bytes, type: stored.type.mime },
      'upload stored',
    );
    ctx.status = 201;
    ctx.body = { url: stored.url };
  });
  return router;
}
