import { type ReactNode, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { formatPrice } from '../../shop/price.ts';
import { CATEGORY_LABELS } from '../../shop/product-admin-messages.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import type { Product } from '../../shop/products.ts';
import { FormErrorsAtButton, useFieldErrors, useFocusFirstError } from '../components/FormErrors.tsx';
import { useCurrency } from '../currency.ts';
import { Notice } from './Notice.tsx';
import type { ProductFormErrors } from './product-form.server.ts';
import { useImageUpload } from './upload.ts';

type Props = {
  product: Product | null;
  errors: ProductFormErrors | null;
  /** Sections with forms of their own, after the product's form (a form cannot hold another). */
  children?: ReactNode;
};

export function ProductEditor({ product, errors, children }: Props) {
  const currency = useCurrency();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  const [price, setPrice] = useState(product ? String(product.price) : '');
  const [image, setImage] = useState(product?.image ?? '');
  const imageUpload = useImageUpload((url) => setImage(url));
  const { fields, onInput } = useFieldErrors(errors?.fields);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, errors);
  const cents = /^\d+$/.test(price) ? Number(price) : 0;
  const err = (name: string) =>
    fields[name] ? (
      <p id={`${name}-error`} className="field-error">
        {fields[name]}
      </p>
    ) : null;
  const described = (name: string, hint?: string) =>
    [hint, fields[name] ? `${name}-error` : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <div className="container admin admin-editor">
      <p>
        <Link to="/admin?tab=products">← Back to Admin</Link>
      </p>
      <h1>{product ? 'Edit Product' : 'New Product'}</h1>
      <Notice result={errors ? { ok: false, title: errors.title, message: errors.message } : null} />
      <Form method="post" className="admin-form" noValidate ref={formRef} onInput={onInput}>
        <div className="field">
          <label htmlFor="name">Name</label>
          <input
            id="name"
            name="name"
            required
            defaultValue={product?.name ?? ''}
            aria-invalid={fields.name ? true : undefined}
            aria-describedby={described('name')}
          />
          {err('name')}
        </div>
        <div className="field">
          <label htmlFor="description">Description</label>
          <textarea
            id="description"
            name="description"
            rows={4}
            required
            defaultValue={product?.description ?? ''}
            aria-invalid={fields.description ? true : undefined}
            aria-describedby={described('description')}
          />
          {err('description')}
        </div>
        <div className="field">
          <label htmlFor="price">Price (cents)</label>
          <div className="editor-tag-entry">
            <input
              id="price"
              name="price"
              inputMode="numeric"
              pattern="[0-9]*"
              value={price}
              onChange={(e) => setPrice(e.target.value.replace(/[^\d]/g, ''))}
              aria-invalid={fields.price ? true : undefined}
              aria-describedby={described('price', 'price-hint')}
            />
            <output htmlFor="price" className="admin-price-preview" aria-live="polite">
              {formatPrice(cents, currency)}
            </output>
          </div>
          <p id="price-hint" className="muted">
            In cents: 2999 is $29.99.
          </p>
          {err('price')}
        </div>
        <div className="field">
          <label htmlFor="category">Category</label>
          <select
            id="category"
            name="category"
            required
            defaultValue={product?.category ?? ''}
            aria-invalid={fields.category ? true : undefined}
            aria-describedby={described('category')}
          >
            <option value="" disabled>
              Choose a category
            </option>
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c] ?? c}
              </option>
            ))}
          </select>
          {err('category')}
        </div>
        <div className="field">
          <label htmlFor="stock">Stock</label>
          <input
            id="stock"
            name="stock"
            inputMode="numeric"
            pattern="[0-9]*"
            defaultValue={product?.stock ?? ''}
            aria-invalid={fields.stock ? true : undefined}
            aria-describedby={described('stock', 'stock-hint')}
          />
          <p id="stock-hint" className="muted">
            Leave empty for unlimited stock.
          </p>
          {err('stock')}
        </div>
        <div className="field drop-zone" {...imageUpload.dropTarget}>
          <label htmlFor="image">Image URL</label>
          <input
            id="image"
            name="image"
            value={image}
            onChange={(e) => setImage(e.target.value)}
            aria-invalid={fields.image ? true : undefined}
            aria-describedby={described('image', 'image-upload-hint')}
          />
          {err('image')}
          <label htmlFor="product-upload" className="editor-sub-label">
            Upload image
          </label>
          <input id="product-upload" {...imageUpload.pickerProps} />
          <p id="image-upload-hint" className="muted">
            Or drop an image here.
          </p>
          <Notice result={imageUpload.notice} />
        </div>
        <div className="field admin-checkbox">
          <input id="featured" name="featured" type="checkbox" defaultChecked={product?.featured ?? false} />
          <label htmlFor="featured">Featured</label>
        </div>
        <div className="field">
          <label htmlFor="status">Status</label>
          <select id="status" name="status" defaultValue={product?.status ?? 'active'}>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </div>
        <FormErrorsAtButton show={Boolean(errors) && !saving} />
        <div className="admin-actions">
          <button className="button" type="submit" disabled={saving}>
            {saving ? 'Saving...' : product ? 'Update Product' : 'Create Product'}
          </button>
          <Link className="button button-secondary" to="/admin?tab=products">
            Cancel
          </Link>
        </div>
      </Form>
      {children}
    </div>
  );
}
