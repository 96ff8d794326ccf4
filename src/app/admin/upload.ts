import { type DragEvent, useState } from 'react';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../media/messages.ts';

export type UploadNotice = { ok: boolean; title: string; message?: string };

/** The file types the editors offer; the server judges each file by its content anyway. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

class UploadRefused extends Error {}

/** POSTs one image to /api/uploads; resolves with its URL or rejects with the words of SPEC §8. */
export async function uploadImage(file: File): Promise<string> {
  if (file.size > MAX_UPLOAD_BYTES) throw new UploadRefused(UPLOAD_MESSAGES.tooLarge);
  const body = new FormData();
  body.append('file', file);
  let res: Response;
  try {
    res = await fetch('/api/uploads', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new UploadRefused('Upload failed');
  }
  const json = (await res.json().catch(() => ({}))) as { url?: string; message?: string };
  if (!res.ok || !json.url)
    throw new UploadRefused(json.message || `Upload failed with status ${res.status}`);
  return json.url;
}

/** The images among dropped files (anything else dropped is left to the browser). */
export function droppedImages(transfer: DataTransfer): File[] {
  return Array.from(transfer.files).filter((file) => file.type === '' || file.type.startsWith('image/'));
}

/**
 * One upload flow for an editor field, by file picker and by drag-and-drop alike: each image is
 * uploaded, handed to onUploaded with its URL, and the outcome shown with SPEC §8's texts.
 */
export function useImageUpload(onUploaded: (url: string, file: File) => void) {
  const [notice, setNotice] = useState<UploadNotice | null>(null);
  const [dragging, setDragging] = useState(false);
  const upload = async (files: Iterable<File>) => {
    for (const file of files) {
      try {
        onUploaded(await uploadImage(file), file);
        setNotice({ ok: true, title: UPLOAD_MESSAGES.success });
      } catch (error) {
        const message = error instanceof UploadRefused ? error.message : 'Upload failed';
        setNotice({
          ok: false,
          title: 'Error',
          message: message === UPLOAD_MESSAGES.tooLarge ? message : UPLOAD_MESSAGES.failed(message),
        });
      }
    }
  };
  const dropTarget = {
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (event: DragEvent<HTMLElement>) => {
      setDragging(false);
      const images = droppedImages(event.dataTransfer);
      if (images.length === 0) return;
      event.preventDefault();
      void upload(images);
    },
    'data-dragging': dragging ? 'true' : undefined,
  };
  const pickerProps = {
    type: 'file' as const,
    accept: IMAGE_ACCEPT,
    onChange: (event: { target: HTMLInputElement }) => {
      const files = Array.from(event.target.files ?? []);
      event.target.value = '';
      void upload(files);
    },
  };
  return { notice, upload, dropTarget, pickerProps };
}
