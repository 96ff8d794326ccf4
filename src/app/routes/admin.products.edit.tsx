import { data } from 'react-router';
import { lastDays, pageSeries } from '../../analytics/report.ts';
import { getProduct } from '../../shop/products.ts';
import { PageViewsCard } from '../admin/AnalyticsChart.tsx';
import { requireAdminUser } from '../admin/guard.server.ts';
import { ProductEditor } from '../admin/ProductEditor.tsx';
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
  const { db } = getApp(context).services;
  const id = productId(params.id);
  const product = await getProduct(db, id);
  if (!product) throw data('Product not found', 404);
  return { product, views: await pageSeries(db, { productId: id }, lastDays(30)) };
}

export function action({ context, request, params }: Route.ActionArgs) {
  return saveProduct(context, request, productId(params.id));
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <ProductEditor product={loaderData.product} errors={actionData ?? null} />
      <div className="container admin">
        <PageViewsCard series={loaderData.views} />
      </div>
    </>
  );
}
