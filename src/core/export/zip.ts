// Streaming ZIP writer (PKWARE APPNOTE 6.3): each entry is written as a local file header with the
// data-descriptor flag (bit 3: CRC and sizes follow the data, so nothing has to be known in advance),
// raw-deflate data from node:zlib, then a data descriptor; the central directory and the end record come
// last. CRC-32 via zlib.crc32 (Node >= 22.2). Entry names are UTF-8 (flag bit 11).
// ZIP64 is not written: any size, offset or count that would need it makes the writer throw instead of
// producing a corrupt archive. With data descriptors that can only be noticed while writing, so the error
// arrives mid-stream and the consumer sees a failed stream, never a silently broken file.

import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, '/'-separated. */
  name: string;
  /** Content: a whole buffer/string, or chunks pulled lazily (only when the entry is reached). */
  data: Buffer | string | AsyncIterable<Buffer | string> | Iterable<Buffer | string>;
}

export interface ZipOptions {
  /** zlib level 0–9 (default 6, zlib's default). */
  level?: number;
  /** Timestamp of every entry (default: now). */
  modifiedAt?: Date;
  /** Largest size or offset allowed; 0xFFFFFFFF is the ZIP (non-ZIP64) ceiling. Lower only in tests. */
  maxBytes?: number;
}

const ZIP32_MAX = 0xffffffff;
const MAX_ENTRIES = 0xffff;
const FLAGS = 0x0008 | 0x0800; // data descriptor follows; UTF-8 names
const METHOD_DEFLATE = 8;
const VERSION = 20; // 2.0: deflate and data descriptors

export class ZipLimitError extends Error {
  override name = 'ZipLimitError';
}

/** MS-DOS date and time fields (local time, 2-second resolution; the format starts in 1980). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, date.getFullYear()));
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

interface CentralRecord {
  name: Buffer;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

export async function* zipChunks(entries: Iterable<ZipEntry>, options: ZipOptions = {}): AsyncGenerator<Buffer, void, undefined> {
  const level = options.level ?? 6;
  const limit = Math.min(options.maxBytes ?? ZIP32_MAX, ZIP32_MAX);
  const stamp = dosDateTime(options.modifiedAt ?? new Date());
  const central: CentralRecord[] = [];
  let written = 0;
  const check = (value: number, what: string): void => {
    if (value > limit) throw new ZipLimitError(`ZIP ${what} exceeds ${limit} bytes; ZIP64 is not supported`);
  };

  for (const entry of entries) {
    if (central.length >= MAX_ENTRIES) throw new ZipLimitError('more than 65535 ZIP entries; ZIP64 is not supported');
    const name = Buffer.from(entry.name, 'utf8');
    const offset = written;
    check(offset, 'offset');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAGS, 6);
    local.writeUInt16LE(METHOD_DEFLATE, 8);
    local.writeUInt16LE(stamp.time, 10);
    local.writeUInt16LE(stamp.date, 12);
    // CRC-32 and sizes (14..25) stay zero: they are in the data descriptor.
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    written += local.length + name.length;
    yield Buffer.concat([local, name]);

    let crc = 0;
    let size = 0;
    let compressedSize = 0;
    if (typeof entry.data === 'string' || Buffer.isBuffer(entry.data)) {
      const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
      crc = zlib.crc32(raw);
      size = raw.length;
      check(size, 'entry size');
      const deflated = zlib.deflateRawSync(raw, { level });
      compressedSize = deflated.length;
      check(written + compressedSize, 'size');
      written += compressedSize;
      yield deflated;
    } else {
      const source = entry.data;
      const counted = async function* (): AsyncGenerator<Buffer> {
        for await (const chunk of source) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          crc = zlib.crc32(buf, crc);
          size += buf.length;
          check(size, 'entry size');
          yield buf;
        }
      };
      const deflater = zlib.createDeflateRaw({ level });
      // Errors reach the loop below through the destroyed deflater; the callback only has to exist.
      pipeline(counted(), deflater, () => {});
      for await (const out of deflater as AsyncIterable<Buffer>) {
        compressedSize += out.length;
        check(written + out.length, 'size');
        written += out.length;
        yield out;
      }
    }

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressedSize, 8);
    descriptor.writeUInt32LE(size, 12);
    written += descriptor.length;
    yield descriptor;
    central.push({ name, crc: crc >>> 0, compressedSize, size, offset });
  }

  const directoryOffset = written;
  check(directoryOffset, 'central directory offset');
  const records: Buffer[] = [];
  for (const r of central) {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, spec 2.0
    h.writeUInt16LE(VERSION, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(METHOD_DEFLATE, 10);
    h.writeUInt16LE(stamp.time, 12);
    h.writeUInt16LE(stamp.date, 14);
    h.writeUInt32LE(r.crc, 16);
    h.writeUInt32LE(r.compressedSize, 20);
    h.writeUInt32LE(r.size, 24);
    h.writeUInt16LE(r.name.length, 28);
    // extra length, comment length, disk number, internal and external attributes: 0
    h.writeUInt32LE(r.offset, 42);
    records.push(h, r.name);
  }
  const directory = Buffer.concat(records);
  check(directoryOffset + directory.length, 'central directory end');

  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  yield Buffer.concat([directory, end]);
}
