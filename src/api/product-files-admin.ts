import Router from '@koa/router';
import { requireAdmin } from '../identity/policy.ts';
import { NotFound } from '../kernel/errors.ts';
import type { AppServices } from '../server/services.ts';
import { SHOP_MESSAGES } from '../shop/messages.ts';
import { PRODUCT_FILE_MESSAGES } from '../shop/product-file-messages.ts';
import { addProductFile, deleteProductFile, listProductFiles } from '../shop/product-files.ts';
import { parseProductId } from '../shop/products.ts';

/**
 * A downloadable product's files (admins): POST multipart `file` (+ optional `name`), GET the
 * list, DELETE one. The files go to the private storage area, never to /uploads.
 */
export function productFilesAdminRouter(services: AppServices): Router {
  const { db, privateFiles } = services;
  const router = new Router();
  const productIdOf = (raw: unknown) => {
    const id = parseProductId(raw);
    if (!id) throw new NotFound(SHOP_MESSAGES.productNotFound);
    return id;
  };

  router.get('/admin/products/:id/files', async (ctx) => {
    requireAdmin(ctx.state);
    const id = productIdOf(ctx.params.id);
    if (!(await db('products').where({ id }).first('id'))) throw new NotFound(SHOP_MESSAGES.productNotFound);
    ctx.body = { files: await listProductFiles(db, id) };
  });

  router.post('/admin/products/:id/files', async (ctx) => {
    requireAdmin(ctx.state);
    const id = productIdOf(ctx.params.id);
    const file = await addProductFile(db, privateFiles, id, ctx.req, services.config.downloadMaxMb);
    ctx.state.log.info({ productId: id, fileId: file.id, bytes: file.size }, 'product file stored');
    ctx.status = 201;
    ctx.body = file;
  });

  router.delete('/admin/products/:id/files/:fileId', async (ctx) => {
    requireAdmin(ctx.state);
    const id = productIdOf(ctx.params.id);
    const fileId = parseProductId(ctx.params.fileId);
    if (!fileId) throw new NotFound(PRODUCT_FILE_MESSAGES.notFound);
    await deleteProductFile(db, privateFiles, id, fileId);
    ctx.body = { message: 'File removed' };
  });

  return router;
}
