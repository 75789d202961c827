/**
 * What a file is, from its bytes alone (never its name or the client's content type): the magic
 * numbers of JPEG, PNG, GIF, WebP, PDF and ZIP, a DOCX told from other ZIPs by its central
 * directory, the pixel size of images read from their headers (nothing is decoded), and the artwork
 * media: MP4 (an ISO BMFF `ftyp` box with an MP4 brand), WebM (an EBML header whose DocType is
 * `webm`) and binary glTF 2.0 (`glTF`, version 2, declared length = the file's length).
 */
export interface Sniffed {
  type: string;
  /** Images only: pixel size from the header (undefined when the header is broken). */
  width?: number;
  height?: number;
}

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export function sniff(buf: Buffer): Sniffed | undefined {
  if (buf.length >= 24 && buf.subarray(0, 8).equals(PNG_SIG)) return png(buf);
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return jpeg(buf);
  if (buf.length >= 10 && (ascii(buf, 0, 6) === 'GIF87a' || ascii(buf, 0, 6) === 'GIF89a')) {
    return { type: 'image/gif', width: buf.readUInt16LE(6), height: buf.readUInt16LE(8) };
  }
  if (buf.length >= 30 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 4) === 'WEBP') return webp(buf);
  if (isPdf(buf)) return { type: 'application/pdf' };
  if (isMp4(buf)) return { type: 'video/mp4' };
  if (isWebm(buf)) return { type: 'video/webm' };
  if (isGlb(buf)) return { type: 'model/gltf-binary' };
  if (buf.length >= 30 && buf.readUInt32LE(0) === 0x04034b50) {
    const names = zipNames(buf);
    if (!names || names.length === 0) return undefined;
    if (names.includes('[Content_Types].xml') && names.includes('word/document.xml')) return { type: DOCX };
    return { type: 'application/zip' };
  }
  return undefined;
}

const ascii = (b: Buffer, at: number, n: number) => b.toString('latin1', at, at + n);

function png(b: Buffer): Sniffed {
  // The first chunk must be IHDR (13 bytes): width and height are its first two 32-bit fields.
  if (ascii(b, 12, 4) !== 'IHDR') return { type: 'image/png' };
  return { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Walks the JPEG markers up to the first start-of-frame, which holds the size. */
function jpeg(b: Buffer): Sniffed {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return { type: 'image/jpeg' };
    let marker = b[i + 1]!;
    while (marker === 0xff && i + 2 < b.length) marker = b[++i + 1]!; // fill bytes
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / start of scan before any frame header
    const len = b.readUInt16BE(i + 2);
    if (len < 2) break;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof && i + 9 <= b.length) return { type: 'image/jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return { type: 'image/jpeg' };
}

function webp(b: Buffer): Sniffed {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { type: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const b1 = b[21]!, b2 = b[22]!, b3 = b[23]!, b4 = b[24]!;
    return { type: 'image/webp', width: 1 + (((b2 & 0x3f) << 8) | b1), height: 1 + (((b4 & 0x0f) << 10) | (b3 << 2) | ((b2 & 0xc0) >> 6)) };
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  return { type: 'image/webp' };
}

/** `%PDF-1.x` within the first KiB (readers allow leading junk) and `%%EOF` within the last 2 KiB. */
function isPdf(b: Buffer): boolean {
  const head = b.indexOf('%PDF-', 0, 'latin1');
  if (head < 0 || head > 1024 || !/^%PDF-\d\.\d/.test(ascii(b, head, 8))) return false;
  return b.subarray(Math.max(0, b.length - 2048)).includes('%%EOF', 0, 'latin1');
}

/**
 * The entry names of a ZIP from its central directory (found through the end-of-central-directory
 * record), or undefined when the structure does not hold together. Nothing is decompressed.
 */
export function zipNames(b: Buffer): string[] | undefined {
  const from = Math.max(0, b.length - (22 + 0xffff));
  let eocd = -1;
  for (let i = b.length - 22; i >= from; i--) {
    if (b.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = b.readUInt16LE(eocd + 10);
  const size = b.readUInt32LE(eocd + 12);
  const offset = b.readUInt32LE(eocd + 16);
  if (offset + size > eocd || count > 65_535) return undefined;
  const names: string[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || b.readUInt32LE(p) !== 0x02014b50) return undefined;
    const nameLen = b.readUInt16LE(p + 28), extraLen = b.readUInt16LE(p + 30), commentLen = b.readUInt16LE(p + 32);
    if (p + 46 + nameLen > eocd) return undefined;
    names.push(b.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** Brands of the first `ftyp` box that make an ISO BMFF file an MP4 video (not HEIC/AVIF stills, not QuickTime). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'M4V ', 'mmp4']);

/** `[size]ftyp[major brand][minor version][compatible brands…]` at offset 0, with the major or a compatible brand in MP4_BRANDS. */
function isMp4(b: Buffer): boolean {
  if (b.length < 16 || ascii(b, 4, 4) !== 'ftyp') return false;
  const size = b.readUInt32BE(0);
  if (size < 16 || size > b.length || size > 4096 || size % 4 !== 0) return false;
  if (MP4_BRANDS.has(ascii(b, 8, 4))) return true;
  for (let i = 16; i + 4 <= size; i += 4) if (MP4_BRANDS.has(ascii(b, i, 4))) return true;
  return false;
}

/** An EBML variable-length integer at `at`: its length in bytes and value (undefined past the buffer or when invalid). */
function vint(b: Buffer, at: number, keepMarker: boolean): { len: number; value: number } | undefined {
  if (at >= b.length) return undefined;
  const first = b[at]!;
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  if (len > 8 || at + len > b.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> len);
  for (let i = 1; i < len; i++) value = value * 256 + b[at + i]!;
  return { len, value };
}

/** The EBML header element (ID 1A 45 DF A3) first, and among its children a DocType (42 82) equal to `webm`. */
function isWebm(b: Buffer): boolean {
  if (b.length < 8 || b.readUInt32BE(0) !== 0x1a45dfa3) return false;
  const hsize = vint(b, 4, false);
  if (!hsize || hsize.value > 4096) return false;
  let p = 4 + hsize.len;
  const end = p + hsize.value;
  if (end > b.length) return false;
  while (p < end) {
    const id = vint(b, p, true);
    if (!id) return false;
    const size = vint(b, p + id.len, false);
    if (!size) return false;
    const data = p + id.len + size.len;
    if (data + size.value > end) return false;
    if (id.value === 0x4282) return b.toString('latin1', data, data + size.value).replace(/\0+$/, '') === 'webm';
    p = data + size.value;
  }
  return false;
}

/** Binary glTF: magic `glTF`, version 2, the header's total length equal to the file's, and a JSON chunk first. */
function isGlb(b: Buffer): boolean {
  if (b.length < 20 || ascii(b, 0, 4) !== 'glTF') return false;
  if (b.readUInt32LE(4) !== 2 || b.readUInt32LE(8) !== b.length) return false;
  const jsonLen = b.readUInt32LE(12);
  return ascii(b, 16, 4) === 'JSON' && 20 + jsonLen <= b.length;
}
