import { Form, Link, useNavigation, useSubmit } from 'react-router';
import { SHOP_MESSAGES, showingRange } from '../../shop/messages.ts';
import { pageWindow, SHOP_PAGE_SIZE } from '../../shop/pagination.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import { isCategory, listProducts } from '../../shop/products.ts';
import { ProductCard, productCard } from '../components/shop/ProductCard.tsx';
import { getApp } from '../context.ts';
import type { RouteHandle } from '../plain-page.ts';
import '../styles/shop.css';
import { redirectPastLastPage } from '../pagination.server.ts';
import type { Route } from './+types/shop';

/** Cards in the grid's first row at its widest (four of 15 rem in 72 rem). */
const FIRST_ROW = 4;

/** Served to sessions from a template: the loader reads nothing of the session (see RouteHandle). */
export const handle: RouteHandle = { sessionTemplate: true };

export const meta: Route.MetaFunction = () => [
  { title: 'Shop — Penstand' },
  { name: 'description', content: 'Courses, books, digital goods and merchandise.' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, 200);
  const rawCategory = url.searchParams.get('category') ?? '';
  const category = isCategory(rawCategory) ? rawCategory : '';
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const { products, pagination } = await listProducts(getApp(context).services.db, {
    page,
    limit: SHOP_PAGE_SIZE,
    category: category || null,
    search: search || null,
    status: 'active',
  });
  redirectPastLastPage(request, pagination);
  return { products: products.map(productCard), pagination, search, category };
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { products, pagination, search, category } = loaderData;
  const submit = useSubmit();
  const navigation = useNavigation();
  const from = pagination.total === 0 ? 0 : (pagination.page - 1) * pagination.limit + 1;
  const to = Math.min(pagination.page * pagination.limit, pagination.total);
  const hrefFor = (page: number) => {
    const params = new URLSearchParams();
    if (search) params.set('search', search);
    if (category) params.set('category', category);
    if (page > 1) params.set('page', String(page));
    const query = params.toString();
    return query ? `/shop?${query}` : '/shop';
  };
  return (
    <div className="container shop-page">
      <h1>Shop</h1>
      {/* A GET form: the state lives in the URL, and a new search or category starts at page 1. */}
      <Form method="get" action="/shop" className="shop-filters" role="search" aria-label="Products">
        <div className="field shop-search">
          <label htmlFor="shop-search">Search products</label>
          <div className="input-with-button">
            <input
              id="shop-search"
              type="search"
              name="search"
              defaultValue={search}
              key={search}
              maxLength={200}
            />
            <button type="submit" className="button">
              Search
            </button>
          </div>
        </div>
        <div className="field shop-category">
          <label htmlFor="shop-category">Category</label>
          <select
            id="shop-category"
            name="category"
            defaultValue={category}
            key={category}
            onChange={(event) => submit(event.currentTarget.form)}
          >
            <option value="">All categories</option>
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      </Form>
      <p className="muted" aria-live="polite" aria-busy={navigation.state === 'loading'}>
        {showingRange(from, to, pagination.total)}
      </p>
      {products.length === 0 ? (
        <div className="empty-state">
          <h2>{SHOP_MESSAGES.noProductsTitle}</h2>
          <p>{SHOP_MESSAGES.noProductsHint}</p>
        </div>
      ) : (
        <ul className="product-grid">
          {products.map((product, i) => (
            // The first row is in view as the page opens: its images are fetched at once, not lazily.
            <ProductCard key={product.id} product={product} eager={i < FIRST_ROW} />
          ))}
        </ul>
      )}
      {pagination.pages > 1 && (
        <nav className="pagination" aria-label="Pagination">
          {pagination.page > 1 ? (
            <Link
              to={hrefFor(pagination.page - 1)}
              className="button button-small button-secondary"
              rel="prev"
            >
              Previous
            </Link>
          ) : (
            <span className="button button-small button-secondary" aria-disabled="true">
              Previous
            </span>
          )}
          {pageWindow(pagination.page, pagination.pages).map((n) => (
            <Link
              key={n}
              to={hrefFor(n)}
              className={
                n === pagination.page ? 'button button-small' : 'button button-small button-secondary'
              }
              aria-current={n === pagination.page ? 'page' : undefined}
              aria-label={`Page ${n}`}
            >
              {n}
            </Link>
          ))}
          {pagination.page < pagination.pages ? (
            <Link
              to={hrefFor(pagination.page + 1)}
              className="button button-small button-secondary"
              rel="next"
            >
              Next
            </Link>
          ) : (
            <span className="button button-small button-secondary" aria-disabled="true">
              Next
            </span>
          )}
        </nav>
      )}
    </div>
  );
}
