/**
 * Entries bounded by their total size in bytes, least recently used out first (a Map keeps
 * insertion order, so a used entry is re-inserted). The page cache and the API answer cache keep
 * their entries here.
 */
export class ByteLru<E> {
  private readonly entries = new Map<string, E>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly sizeOf: (entry: E) => number;

  constructor(maxBytes: number, sizeOf: (entry: E) => number) {
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of a key, marked as just used. */
  get(key: string): E | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Stores an entry (replacing the key's), then drops the least recently used over the bound. */
  set(key: string, entry: E): void {
    this.delete(key);
    this.entries.set(key, entry);
    this.bytes += this.sizeOf(entry);
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= this.sizeOf(entry);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
