import { Link } from 'react-router';
import { formatPrice } from '../../../shop/price.ts';
import type { Product } from '../../../shop/products.ts';
import { useCurrency } from '../../currency.ts';
import { ProductImage } from './ProductImage.tsx';

export type ProductCardData = Pick<
  Product,
  'id' | 'name' | 'description' | 'price' | 'image' | 'category' | 'stock' | 'featured'
>;

export function ProductCard({
  product,
  headingLevel = 'h2',
}: {
  product: ProductCardData;
  headingLevel?: 'h2' | 'h3';
}) {
  const currency = useCurrency();
  const Heading = headingLevel;
  return (
    <li className="card product-card">
      <ProductImage src={product.image} alt="" />
      <div className="product-card-body">
        <div className="product-badges">
          <span className="badge">{product.category}</span>
          {product.featured && <span className="badge badge-featured">Featured</span>}
          {product.stock === 0 && <span className="badge badge-danger">Out of Stock</span>}
        </div>
        <Heading className="product-card-title">
          <Link to={`/product/${product.id}`}>{product.name}</Link>
        </Heading>
        <p className="muted product-card-description">{product.description}</p>
        <p className="product-price">{formatPrice(product.price, currency)}</p>
        <Link
          to={`/product/${product.id}`}
          className="button button-small button-secondary"
          aria-label={`View Details: ${product.name}`}
        >
          View Details
        </Link>
      </div>
    </li>
  );
}
