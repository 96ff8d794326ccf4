import { type FormEvent, useState } from 'react';
import { PRODUCT_FILE_MESSAGES } from '../../shop/product-file-messages.ts';
import type { ProductFile } from '../../shop/product-files.ts';
import { formatSize } from './format.ts';
import { Notice } from './Notice.tsx';

type Props = { productId: number; files: ProductFile[]; maxMb: number };
type Result = { ok: boolean; title: string; message?: string } | null;

async function messageOf(res: Response): Promise<string> {
  const json = (await res.json().catch(() => ({}))) as { message?: string };
  return json.message || `Failed with status ${res.status}`;
}

/**
 * The files a buyer downloads (a product with files is digital). Outside the product's form: each
 * file goes straight to the API, streamed by the browser, and the list follows what it answers.
 */
export function ProductFiles({ productId, files: initial, maxMb }: Props) {
  const [files, setFiles] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const base = `/api/admin/products/${productId}/files`;

  const attach = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0) {
      setResult({ ok: false, title: 'Error', message: PRODUCT_FILE_MESSAGES.noFile });
      return;
    }
    if (file.size > maxMb * 1024 * 1024) {
      setResult({ ok: false, title: 'Error', message: PRODUCT_FILE_MESSAGES.tooLarge(maxMb) });
      return;
    }
    setBusy(true);
    setResult(null);
    try {
      const res = await fetch(base, { method: 'POST', body: data, credentials: 'same-origin' });
      if (!res.ok) {
        setResult({ ok: false, title: 'Error', message: await messageOf(res) });
        return;
      }
      const added = (await res.json()) as ProductFile;
      setFiles((list) => [...list, added]);
      setResult({ ok: true, title: 'File attached', message: added.name });
      form.reset();
    } catch {
      setResult({ ok: false, title: 'Error', message: 'Upload failed' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (file: ProductFile) => {
    setBusy(true);
    try {
      const res = await fetch(`${base}/${file.id}`, { method: 'DELETE', credentials: 'same-origin' });
      // Already gone is what was asked for.
      if (!res.ok && res.status !== 404) {
        setResult({ ok: false, title: 'Error', message: await messageOf(res) });
        return;
      }
      setFiles((list) => list.filter((f) => f.id !== file.id));
      setResult({ ok: true, title: 'File removed', message: file.name });
    } catch {
      setResult({ ok: false, title: 'Error', message: 'Removing the file failed' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-product-files" aria-labelledby="product-files-heading">
      <h2 id="product-files-heading">Downloadable files</h2>
      <p className="muted">
        A product with files is digital: buyers get download links once paid, and checkout asks no address for
        it.
      </p>
      {files.length ? (
        <ul className="admin-file-list">
          {files.map((file) => (
            <li key={file.id}>
              <span>
                <strong>{file.name}</strong>{' '}
                <span className="muted">
                  ({file.fileName}, {formatSize(file.size)})
                </span>
              </span>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                onClick={() => void remove(file)}
                aria-label={`Remove ${file.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>No files yet.</p>
      )}
      <form className="admin-form" onSubmit={(event) => void attach(event)}>
        <div className="field">
          <label htmlFor="product-file">File</label>
          <input id="product-file" name="file" type="file" required aria-describedby="product-file-hint" />
          <p id="product-file-hint" className="muted">
            Any type, up to {maxMb} MB.
          </p>
        </div>
        <div className="field">
          <label htmlFor="product-file-name">Name shown to buyers</label>
          <input
            id="product-file-name"
            name="name"
            maxLength={200}
            aria-describedby="product-file-name-hint"
          />
          <p id="product-file-name-hint" className="muted">
            Leave empty to use the file's own name.
          </p>
        </div>
        <Notice result={result} />
        <button className="button" type="submit" disabled={busy}>
          {busy ? 'Uploading...' : 'Attach file'}
        </button>
      </form>
    </section>
  );
}
