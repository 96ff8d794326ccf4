import { data } from 'react-router';
import { lastDays, pageSeries } from '../../analytics/report.ts';
import { listProductFiles } from '../../shop/product-files.ts';
import { getProduct } from '../../shop/products.ts';
import { PageViewsCard } from '../admin/AnalyticsChart.tsx';
import { requireAdminUser } from '../admin/guard.server.ts';
import { ProductEditor } from '../admin/ProductEditor.tsx';
import { ProductFiles } from '../admin/ProductFiles.tsx';
import { saveProduct } from '../admin/product-form.server.ts';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin.products.edit';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Edit ${loaderData?.product.name ?? 'product'} — Admin` },
  { name: 'robots', content: 'noindex' },
];

function productId(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw data('Product not found', 404);
  return id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { services } = getApp(context);
  const id = productId(params.id);
  const product = await getProduct(services.db, id);
  if (!product) throw data('Product not found', 404);
  const [files, views] = await Promise.all([
    listProductFiles(services.db, id),
    (await services.analytics.isOn()) ? pageSeries(services.db, { productId: id }, lastDays(30)) : null,
  ]);
  return { product, files, maxMb: services.config.downloadMaxMb, views };
}

export function action({ context, request, params }: Route.ActionArgs) {
  return saveProduct(context, request, productId(params.id));
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, files, maxMb, views } = loaderData;
  return (
    <>
      <ProductEditor product={product} errors={actionData ?? null}>
        <ProductFiles productId={product.id} files={files} maxMb={maxMb} />
      </ProductEditor>
      <div className="container admin">
        <PageViewsCard series={views} />
      </div>
    </>
  );
}
