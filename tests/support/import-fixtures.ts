import path from 'node:path';
import { crc32 } from 'node:zlib';

/** Real exports published by other projects (see tests/fixtures/import/README.md), kept as they are. */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
export const WXR_FIXTURE = path.join(FIXTURES, 'wordpress-theme-unit-test.xml');
export const GHOST_FIXTURE = path.join(FIXTURES, 'ghost-6-export.json');
/** Zips shaped as Substack's and Medium's exports (see tests/fixtures/import/README.md for how they were made). */
export const SUBSTACK_FIXTURE = path.join(FIXTURES, 'substack-export.zip');
export const MEDIUM_FIXTURE = path.join(FIXTURES, 'medium-export.zip');
/** A members list shaped as Ghost's Members → Export writes it (see the README). */
export const GHOST_MEMBERS_FIXTURE = path.join(FIXTURES, 'ghost-members.csv');

/** A zip of the given files, stored uncompressed: for archives that are no export (the refusals). */
export function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(data.length, at + 14);
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    fields(entry, 6);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
