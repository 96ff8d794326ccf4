import { Form, Link, useNavigation } from 'react-router';
import { formatPrice } from '../../shop/price.ts';
import { PRODUCT_ADMIN_MESSAGES as M } from '../../shop/product-admin-messages.ts';
import type { Product } from '../../shop/products.ts';
import { useCurrency } from '../currency.ts';
import { formatDate } from './format.ts';

type Filters = { q: string; status: 'all' | 'active' | 'inactive' };

/** Empty stock means unlimited (DESIGN: stock IS NULL); 0 is sold out, which the admin must see. */
export function stockLabel(stock: number | null): string {
  if (stock === null) return M.unlimited;
  return stock === 0 ? '0 (out of stock)' : String(stock);
}

function ProductCard({ product }: { product: Product }) {
  const currency = useCurrency();
  const navigation = useNavigation();
  const deleting = navigation.formData?.get('id') === String(product.id);
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
      <div className="admin-actions">
        <a
          className="button button-small button-secondary"
          href={`/product/${product.id}`}
          target="_blank"
          rel="noreferrer"
        >
          View<span className="visually-hidden"> {product.name} (opens in a new tab)</span>
        </a>
        <Link className="button button-small button-secondary" to={`/admin/products/${product.id}`}>
          Edit<span className="visually-hidden"> {product.name}</span>
        </Link>
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(M.confirmDelete)) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="delete-product" />
          <input type="hidden" name="id" value={product.id} />
          <button className="button button-small button-danger" type="submit" disabled={deleting}>
            Delete<span className="visually-hidden"> {product.name}</span>
          </button>
        </Form>
      </div>
    </li>
  );
}

export function ProductsTab({ products, filters }: { products: Product[]; filters: Filters }) {
  return (
    <div className="admin-stack">
      <div className="admin-toolbar">
        <Form method="get" className="admin-filters" role="search">
          <input type="hidden" name="tab" value="products" />
          <div className="field">
            <label htmlFor="product-search">Search products</label>
            <input id="product-search" name="q" type="search" defaultValue={filters.q} />
          </div>
          <div className="field">
            <label htmlFor="product-status">Status</label>
            <select id="product-status" name="status" defaultValue={filters.status}>
              <option value="all">All</option>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
            </select>
          </div>
          <button className="button button-secondary" type="submit">
            Filter
          </button>
        </Form>
        <Link className="button" to="/admin/products/new">
          New Product
        </Link>
      </div>
      {products.length === 0 ? (
        <p className="empty-state">No products found</p>
      ) : (
        <ul className="admin-items">
          {products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </ul>
      )}
    </div>
  );
}
