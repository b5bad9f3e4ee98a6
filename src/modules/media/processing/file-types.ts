/** Content sniffing: the type of an upload is decided by its bytes, never by its name. */

export interface SniffedType {
  mime: string;
  ext: string;
}

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

const IMAGE_TYPES: Record<ImageFormat, SniffedType> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
};

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

export function sniffImage(data: Buffer): (SniffedType & { format: ImageFormat }) | undefined {
  let format: ImageFormat | undefined;
  if (startsWith(data, [0xff, 0xd8, 0xff])) format = 'jpeg';
  else if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) format = 'png';
  else if (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a') format = 'gif';
  else if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') format = 'webp';
  return format ? { ...IMAGE_TYPES[format], format } : undefined;
}

/**
 * Whether an image file ends as its format requires (PNG IEND chunk, JPEG end-of-image marker, GIF
 * trailer, WebP RIFF length): a truncated upload is refused at once, before any pixel is decoded.
 */
export function isCompleteImage(data: Buffer, format: ImageFormat): boolean {
  switch (format) {
    case 'png':
      return data.length >= 12 && ascii(data, data.length - 8, data.length - 4) === 'IEND';
    case 'jpeg': {
      // Some encoders pad after the end-of-image marker: look for it near the end.
      const tail = data.subarray(Math.max(0, data.length - 64));
      for (let i = tail.length - 2; i >= 0; i -= 1) if (tail[i] === 0xff && tail[i + 1] === 0xd9) return true;
      return false;
    }
    case 'gif':
      return data.length > 13 && data.subarray(Math.max(0, data.length - 16)).includes(0x3b);
    case 'webp':
      return data.length >= 12 && data.readUInt32LE(4) + 8 <= data.length;
  }
}

/** MP4/QuickTime (ftyp box), Matroska/WebM (EBML), Ogg, AVI. */
export function sniffVideo(data: Buffer): SniffedType | undefined {
  if (data.length >= 12 && ascii(data, 4, 8) === 'ftyp') {
    const brand = ascii(data, 8, 12);
    if (brand === 'qt  ') return { mime: 'video/quicktime', ext: 'mov' };
    if (/^(3gp|3g2)/.test(brand)) return { mime: 'video/3gpp', ext: '3gp' };
    if (/^(M4A |M4B |M4P )/.test(brand)) return undefined; // audio only
    return { mime: 'video/mp4', ext: 'mp4' };
  }
  if (startsWith(data, [0x1a, 0x45, 0xdf, 0xa3])) {
    const head = ascii(data, 0, Math.min(data.length, 64));
    return head.includes('webm') ? { mime: 'video/webm', ext: 'webm' } : { mime: 'video/x-matroska', ext: 'mkv' };
  }
  if (ascii(data, 0, 4) === 'OggS') return { mime: 'video/ogg', ext: 'ogv' };
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'AVI ') return { mime: 'video/x-msvideo', ext: 'avi' };
  return undefined;
}

export type DocumentGroup = 'pdf' | 'word' | 'spreadsheet' | 'presentation';

export interface SniffedDocument extends SniffedType {
  group: DocumentGroup;
}

const DOC = (mime: string, ext: string, group: DocumentGroup): SniffedDocument => ({ mime, ext, group });

const OOXML: [prefix: string, doc: SniffedDocument][] = [
  ['word/', DOC('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx', 'word')],
  ['xl/', DOC('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx', 'spreadsheet')],
  ['ppt/', DOC('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx', 'presentation')],
];

const ODF: Record<string, SniffedDocument> = {
  'application/vnd.oasis.opendocument.text': DOC('application/vnd.oasis.opendocument.text', 'odt', 'word'),
  'application/vnd.oasis.opendocument.spreadsheet': DOC(
    'application/vnd.oasis.opendocument.spreadsheet',
    'ods',
    'spreadsheet',
  ),
  'application/vnd.oasis.opendocument.presentation': DOC(
    'application/vnd.oasis.opendocument.presentation',
    'odp',
    'presentation',
  ),
};

/** Legacy binary Office files share one container (OLE2); the file name's extension tells which one. */
const OLE: Record<string, SniffedDocument> = {
  doc: DOC('application/msword', 'doc', 'word'),
  xls: DOC('application/vnd.ms-excel', 'xls', 'spreadsheet'),
  ppt: DOC('application/vnd.ms-powerpoint', 'ppt', 'presentation'),
};

/** Names of the entries of a ZIP archive, read from its central directory; undefined when it is not one. */
export function zipEntryNames(data: Buffer): string[] | undefined {
  if (!startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return undefined;
  const searchFrom = Math.max(0, data.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = data.length - 22; i >= searchFrom; i -= 1) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  const count = data.readUInt16LE(eocd + 10);
  let offset = data.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n += 1) {
    if (offset + 46 > data.length || data.readUInt32LE(offset) !== 0x02014b50) return undefined;
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    names.push(data.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** ODF keeps its type, uncompressed, in the first entry `mimetype`. */
function odfType(data: Buffer): SniffedDocument | undefined {
  if (ascii(data, 30, 38) !== 'mimetype') return undefined;
  const start = 38 + data.readUInt16LE(28);
  const size = data.readUInt32LE(18);
  return ODF[ascii(data, start, start + Math.min(size, 100))];
}

/** PDF, OOXML (docx/xlsx/pptx), OpenDocument (odt/ods/odp) and legacy Office (doc/xls/ppt). */
export function sniffDocument(data: Buffer, filename: string): SniffedDocument | undefined {
  if (ascii(data, 0, 5) === '%PDF-') return DOC('application/pdf', 'pdf', 'pdf');
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return OLE[/\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? ''];
  }
  const names = zipEntryNames(data);
  if (!names) return undefined;
  const odf = odfType(data);
  if (odf) return odf;
  if (!names.includes('[Content_Types].xml')) return undefined;
  return OOXML.find(([prefix]) => names.some((name) => name.startsWith(prefix)))?.[1];
}
