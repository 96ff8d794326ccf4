import { type ReactNode, useRef, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { formatPrice } from '../../shop/price.ts';
import { CATEGORY_LABELS, PRODUCT_ADMIN_MESSAGES } from '../../shop/product-admin-messages.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import type { Product } from '../../shop/products.ts';
import { FormErrorsAtButton, useFieldErrors, useFocusFirstError } from '../components/FormErrors.tsx';
import { UploadedImage } from '../components/UploadedImage.tsx';
import { useCurrency } from '../currency.ts';
import { Notice } from './Notice.tsx';
import type { ProductFormErrors } from './product-form.server.ts';
import { FieldError, SelectField, TextField } from './TextField.tsx';
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
        <TextField name="name" label="Name" required defaultValue={product?.name ?? ''} error={fields.name} />
        <TextField
          name="description"
          label="Description"
          rows={4}
          required
          defaultValue={product?.description ?? ''}
          error={fields.description}
        />
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
          <FieldError id="price-error" message={fields.price} />
        </div>
        <SelectField
          name="category"
          label="Category"
          required
          defaultValue={product?.category ?? ''}
          placeholder="Choose a category"
          options={PRODUCT_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] ?? c }))}
          error={fields.category}
        />
        <TextField
          name="stock"
          label="Stock"
          inputMode="numeric"
          pattern="[0-9]*"
          defaultValue={product?.stock ?? ''}
          error={fields.stock}
          hint="Leave empty for unlimited stock. A product with options keeps a stock per variant instead."
        />
        <TextField
          name="options"
          label="Options"
          rows={3}
          defaultValue={(product?.options ?? []).map((o) => `${o.name}: ${o.values.join(', ')}`).join('\n')}
          error={fields.options ?? fields.variants}
          hint="Up to 3, one a line, e.g. Size: S, M, L. Each combination is a variant; save to see new ones below."
        />
        {product && product.variants.length > 0 && (
          <table className="admin-variants">
            <caption>Variants</caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Stock</th>
                <th scope="col">SKU</th>
                <th scope="col">Price (cents)</th>
              </tr>
            </thead>
            <tbody>
              {product.variants.map((v) => (
                <tr key={v.id}>
                  <th scope="row">{v.label}</th>
                  <td>
                    <input
                      name={`variant-stock:${v.label}`}
                      inputMode="numeric"
                      defaultValue={v.stock ?? ''}
                      aria-label={`Stock of ${v.label}`}
                      placeholder={PRODUCT_ADMIN_MESSAGES.unlimited}
                    />
                  </td>
                  <td>
                    <input
                      name={`variant-sku:${v.label}`}
                      defaultValue={v.sku}
                      aria-label={`SKU of ${v.label}`}
                    />
                  </td>
                  <td>
                    <input
                      name={`variant-price:${v.label}`}
                      inputMode="numeric"
                      defaultValue={v.price ?? ''}
                      aria-label={`Price of ${v.label}`}
                      placeholder={String(product.price)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
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
          <FieldError id="images-error" message={fields.images} />
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
        <SelectField
          name="status"
          label="Status"
          defaultValue={product?.status ?? 'active'}
          options={[
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Inactive' },
          ]}
        />
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
