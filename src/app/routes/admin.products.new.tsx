import { requireAdminUser } from '../admin/guard.server.ts';
import { ProductEditor } from '../admin/ProductEditor.tsx';
import { saveProduct } from '../admin/product-form.server.ts';
import '../styles/admin.css';
import type { Route } from './+types/admin.products.new';

export const meta: Route.MetaFunction = () => [
  { title: 'New Product — Admin' },
  { name: 'robots', content: 'noindex' },
];

export function loader({ context, request }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  return null;
}

export function action({ context, request }: Route.ActionArgs) {
  return saveProduct(context, request, null);
}

export default function NewProduct({ actionData }: Route.ComponentProps) {
  return <ProductEditor product={null} errors={actionData ?? null} />;
}
