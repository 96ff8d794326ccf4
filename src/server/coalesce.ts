import { Transform, type TransformCallback } from 'node:stream';

/** Most bytes one coalesced chunk holds. */
const COALESCE_BYTES = 64 * 1024;

/**
 * Joins the small chunks the renderer writes in one turn of the event loop into one. The
 * compression middleware flushes every chunk (so streamed HTML is not held back), and a page
 * came as dozens of small ones: each a web stream read, a flush, a gzip block and a socket write.
 * A chunk still goes out as soon as the renderer waits (for deferred data), at the next turn of
 * the loop. React writes into it directly, before its chunks become a web stream.
 */
export class Coalesce extends Transform {
  #chunks: Buffer[] = [];
  #size = 0;
  #timer: NodeJS.Immediate | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#size >= COALESCE_BYTES) this.#send();
    else this.#timer ??= setImmediate(() => this.#send());
    done();
  }

  override _flush(done: TransformCallback): void {
    this.#send();
    done();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    if (this.#timer) clearImmediate(this.#timer);
    done(error);
  }

  #send(): void {
    if (this.#timer) clearImmediate(this.#timer);
    this.#timer = null;
    if (this.#size === 0) return;
    this.push(Buffer.concat(this.#chunks, this.#size));
    this.#chunks = [];
    this.#size = 0;
  }
}
