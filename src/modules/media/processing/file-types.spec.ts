import { sniffDocument, sniffImage, sniffVideo, zipEntryNames } from './file-types';

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

/** A stored (uncompressed) ZIP with the given entries, first entry first. */
function zip(entries: [name: string, content: string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.concat([local, Buffer.from(name), Buffer.from(content)]);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(Buffer.concat([central, Buffer.from(name)]));
    locals.push(entry);
    offset += entry.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('file types (by content)', () => {
  it('knows JPEG, PNG, GIF and WebP by their signatures, and nothing else', () => {
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))?.mime).toBe('image/jpeg');
    expect(sniffImage(bytes(0x89, 'PNG\r\n', 0x1a, '\n'))?.ext).toBe('png');
    expect(sniffImage(bytes('GIF89a'))?.format).toBe('gif');
    expect(sniffImage(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))?.format).toBe('webp');
    expect(sniffImage(bytes('RIFF', 0, 0, 0, 0, 'AVI LIST'))).toBeUndefined();
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
    expect(sniffImage(bytes('II*', 0))).toBeUndefined();
    expect(sniffImage(Buffer.alloc(0))).toBeUndefined();
  });

  it('knows video containers', () => {
    expect(sniffVideo(bytes(0, 0, 0, 0x18, 'ftypisom'))?.mime).toBe('video/mp4');
    expect(sniffVideo(bytes(0, 0, 0, 0x14, 'ftypqt  '))?.ext).toBe('mov');
    expect(sniffVideo(bytes(0, 0, 0, 0x14, 'ftypM4A '))).toBeUndefined();
    expect(sniffVideo(bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, 'webm'))?.ext).toBe('webm');
    expect(sniffVideo(bytes(0x1a, 0x45, 0xdf, 0xa3, 'matroska'))?.ext).toBe('mkv');
    expect(sniffVideo(bytes('OggS'))?.mime).toBe('video/ogg');
    expect(sniffVideo(bytes('RIFF', 0, 0, 0, 0, 'AVI '))?.ext).toBe('avi');
    expect(sniffVideo(bytes('%PDF-1.4'))).toBeUndefined();
  });

  it('knows PDF, OOXML, OpenDocument and legacy Office; a name never makes a type', () => {
    expect(sniffDocument(bytes('%PDF-1.7\n'), 'x.docx')).toEqual({ mime: 'application/pdf', ext: 'pdf', group: 'pdf' });
    const xlsx = zip([
      ['[Content_Types].xml', '<Types/>'],
      ['xl/workbook.xml', '<workbook/>'],
    ]);
    expect(zipEntryNames(xlsx)).toEqual(['[Content_Types].xml', 'xl/workbook.xml']);
    expect(sniffDocument(xlsx, 'sheet.pdf')?.ext).toBe('xlsx');
    expect(
      sniffDocument(
        zip([
          ['[Content_Types].xml', ''],
          ['ppt/presentation.xml', ''],
        ]),
        'a',
      )?.group,
    ).toBe('presentation');
    const odt = zip([
      ['mimetype', 'application/vnd.oasis.opendocument.text'],
      ['content.xml', ''],
    ]);
    expect(sniffDocument(odt, 'a.zip')).toEqual({
      mime: 'application/vnd.oasis.opendocument.text',
      ext: 'odt',
      group: 'word',
    });
    expect(sniffDocument(zip([['notes.txt', 'hello']]), 'a.docx')).toBeUndefined();
    expect(
      sniffDocument(
        zip([
          ['[Content_Types].xml', ''],
          ['other/x.xml', ''],
        ]),
        'a.docx',
      ),
    ).toBeUndefined();
    const ole = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
    expect(sniffDocument(ole, 'Budget.XLS')?.mime).toBe('application/vnd.ms-excel');
    expect(sniffDocument(ole, 'setup.msi')).toBeUndefined();
    expect(sniffDocument(bytes('PK', 3, 4, 'garbage without a directory'), 'a.docx')).toBeUndefined();
    expect(sniffDocument(bytes('<html>'), 'a.pdf')).toBeUndefined();
  });
});
