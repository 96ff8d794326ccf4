import { type ReactNode, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { formatPrice } from '../../shop/price.ts';
import { CATEGORY_LABELS } from '../../shop/product-admin-messages.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import type { Product } from '../../shop/products.ts';
import { FormErrorsAtButton, useFieldErrors, useFocusFirstError } from '../components/FormErrors.tsx';
import { UploadedImage } from '../components/UploadedImage.tsx';
import { useCurrency } from '../currency.ts';
import { Notice } from './Notice.tsx';
import type { ProductFormErrors } from './product-form.server.ts';
import { useImageUpload } from './upload.ts';

/** The list with the items at a and b exchanged. */
function swap<T>(list: T[], a: number, b: number): T[] {
  const next = [...list];
  [next[a], next[b]] = [next[b], next[a]];
  return next;
}

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
  const [images, setImages] = useState<string[]>(product?.images ?? []);
  const imageUpload = useImageUpload((url) => setImages((list) => [...list, url]));
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
        <fieldset
          className="field drop-zone admin-fieldset product-images-editor"
          aria-describedby={described('images', 'images-hint')}
          {...imageUpload.dropTarget}
        >
          <legend>Images</legend>
          <p id="images-hint" className="muted">
            The first image is the one shop cards and the cart show. Empty a field to remove its image.
          </p>
          <ol className="product-images-list">
            {images.map((url, index) => (
              // Images may repeat; their place in the list is what identifies them here.
              // biome-ignore lint/suspicious/noArrayIndexKey: the position is the identity
              <li key={index} className="product-images-item">
                <UploadedImage src={url} variant="card" alt="" width={64} height={64} loading="lazy" />
                <label htmlFor={`image-${index}`} className="visually-hidden">
                  Image {index + 1} URL
                </label>
                <input
                  id={`image-${index}`}
                  name="images"
                  value={url}
                  onChange={(e) =>
                    setImages((list) => list.map((u, i) => (i === index ? e.target.value : u)))
                  }
                  aria-invalid={fields.images ? true : undefined}
                />
                <span className="product-images-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Move image ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => setImages((list) => swap(list, index, index - 1))}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Move image ${index + 1} down`}
                    disabled={index === images.length - 1}
                    onClick={() => setImages((list) => swap(list, index, index + 1))}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Remove image ${index + 1}`}
                    onClick={() => setImages((list) => list.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </span>
              </li>
            ))}
          </ol>
          <label htmlFor="image-new" className="editor-sub-label">
            Add an image URL
          </label>
          {/* A field of its own, named like the others: without JavaScript a link typed here is added on save. */}
          <input
            id="image-new"
            name="images"
            defaultValue=""
            aria-invalid={fields.images ? true : undefined}
          />
          {err('images')}
          <label htmlFor="product-upload" className="editor-sub-label">
            Upload images
          </label>
          <input id="product-upload" multiple {...imageUpload.pickerProps} />
          <p className="muted">Or drop images here.</p>
          <Notice result={imageUpload.notice} />
        </fieldset>
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
