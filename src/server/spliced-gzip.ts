import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Gzip for a page made of fixed parts and short per-response values between them, without
 * compressing the page again per response. Each fixed part is compressed once on its own (a full
 * flush: no back-reference crosses into what comes before it, and it ends on a byte boundary), each
 * value goes in as a stored (uncompressed) deflate block, and a final empty block ends the stream
 * (RFC 1951 §3.2.4). The gzip trailer's CRC-32 and length (RFC 1952) are of the whole page.
 */

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** BFINAL=1, BTYPE=00 (stored), LEN=0, NLEN=0xffff. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** A stored block holds at most 65,535 bytes. */
const MAX_STORED = 0xffff;

/** A fixed part, compressed to sit anywhere in a spliced stream. */
export function compressPart(part: Buffer): Buffer {
  return deflateRawSync(part, { level: 6, finishFlush: constants.Z_FULL_FLUSH });
}

function storedBlocks(value: Buffer, out: Buffer[]): void {
  for (let offset = 0; offset < value.length; offset += MAX_STORED) {
    const chunk = value.subarray(offset, offset + MAX_STORED);
    const header = Buffer.allocUnsafe(5);
    header[0] = 0x00; // BFINAL=0, BTYPE=00, then padding to the byte boundary
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    out.push(header, chunk);
  }
}

/**
 * The gzip stream of parts[0] + values[0] + parts[1] + … + parts[n], given each part's
 * compressPart (values.length === parts.length - 1).
 */
export function splicedGzip(
  parts: readonly Buffer[],
  compressed: readonly Buffer[],
  values: readonly Buffer[],
): Buffer {
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  for (let i = 0; i < parts.length; i++) {
    out.push(compressed[i]);
    crc = crc32(parts[i], crc);
    length += parts[i].length;
    const value = values[i];
    if (value?.length) {
      storedBlocks(value, out);
      crc = crc32(value, crc);
      length += value.length;
    }
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(out);
}
