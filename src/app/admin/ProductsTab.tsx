import { Link } from 'react-router';
import { formatPrice } from '../../shop/price.ts';
import { PRODUCT_ADMIN_MESSAGES as M, stockLabel } from '../../shop/product-admin-messages.ts';
import type { Product } from '../../shop/products.ts';
import { useCurrency } from '../currency.ts';
import { AdminFilters, AdminItems, AdminPages, ItemActions } from './AdminList.tsx';
import { formatDate } from './format.ts';

export const PRODUCT_FILTERS = ['all', 'active', 'inactive'] as const;
type Filters = { q: string; status: (typeof PRODUCT_FILTERS)[number] };

function ProductCard({ product }: { product: Product }) {
  const currency = useCurrency();
  return (
    <li className="card admin-item">
      <div className="admin-item-head">
        <h3>{product.name}</h3>
        <span>
          {product.featured ? <span className="badge">Featured</span> : null}{' '}
          <span className={product.status === 'active' ? 'badge badge-published' : 'badge'}>
            {product.status}
          </span>
        </span>
      </div>
      <p>{product.description}</p>
      <p className="muted admin-meta">
        <span>{product.category}</span>
        <span>{formatPrice(product.price, currency)}</span>
        <span>Stock: {stockLabel(product.stock)}</span>
        <span>Created {formatDate(product.createdAt)}</span>
      </p>
      <ItemActions
        name={product.name}
        view={`/product/${product.id}`}
        edit={`/admin/products/${product.id}`}
        intent="delete-product"
        id={product.id}
        confirm={M.confirmDelete}
      />
    </li>
  );
}

export function ProductsTab({
  products,
  filters,
  pagination,
}: {
  products: Product[];
  filters: Filters;
  pagination: { page: number; pages: number; total: number };
}) {
  return (
    <div className="admin-stack">
      <AdminFilters
        noun="product"
        params={{ tab: 'products' }}
        searches={[{ name: 'q', label: 'Search products', value: filters.q }]}
        selects={[{ name: 'status', label: 'Status', options: PRODUCT_FILTERS, value: filters.status }]}
        beside={
          <Link className="button" to="/admin/products/new">
            New Product
          </Link>
        }
      />
      <AdminItems items={products} empty="No products found">
        {(product) => <ProductCard key={product.id} product={product} />}
      </AdminItems>
      <AdminPages label="Product pages" params={{ tab: 'products', ...filters }} pagination={pagination} />
    </div>
  );
}
