import { ValidationError } from '../../errors';

/** The encodings an import file may be in: UTF-8, or Windows-1252 when the user says so (converted as it is read). */
export const CSV_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** A file as pieces of bytes, read again from its start each time it is called (a file stream, a buffer). */
export type CsvBytes = () => AsyncIterable<Uint8Array>;

/** An import file held in memory (an API request's), as pieces of at most `pieceSize` bytes. */
export function bytesOf(buffer: Uint8Array, pieceSize = 64 * 1024): CsvBytes {
  return async function* pieces() {
    for (let start = 0; start < buffer.length; start += pieceSize) yield buffer.subarray(start, start + pieceSize);
  };
}

/** Windows-1252's 0x80–0x9F (the rest of it is Latin-1): Node's decoder reads them as C1 controls. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function windows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte >= 0x80 && byte <= 0x9f ? (CP1252_HIGH[byte - 0x80] as number) : byte);
  return text;
}

/** Where a piece stops being UTF-8: the index of the first byte of a bad sequence; `bytes.length` when it is all good. */
function firstBadUtf8(bytes: Uint8Array, final: boolean): { bad: number | null; complete: number } {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    if (byte < 0x80) {
      i += 1;
      continue;
    }
    // The sequence's length and the least code point it may carry (a longer form of a smaller one is not UTF-8).
    const [size, min] =
      byte >= 0xc2 && byte <= 0xdf
        ? [2, 0x80]
        : byte >= 0xe0 && byte <= 0xef
          ? [3, 0x800]
          : byte >= 0xf0 && byte <= 0xf4
            ? [4, 0x10000]
            : [0, 0];
    if (size === 0) return { bad: i, complete: i };
    if (i + size > bytes.length) {
      // A sequence cut by the end of the piece: good so far, finished by the next piece (bad at the file's end).
      for (let j = i + 1; j < bytes.length; j += 1) if (((bytes[j] as number) & 0xc0) !== 0x80) return { bad: i, complete: i };
      return final ? { bad: i, complete: i } : { bad: null, complete: i };
    }
    let point = byte & (0xff >> (size + 1));
    for (let j = i + 1; j < i + size; j += 1) {
      const next = bytes[j] as number;
      if ((next & 0xc0) !== 0x80) return { bad: i, complete: i };
      point = (point << 6) | (next & 0x3f);
    }
    if (point < min || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return { bad: i, complete: i };
    i += size;
  }
  return { bad: null, complete: bytes.length };
}

const countLines = (bytes: Uint8Array, end: number) => {
  let lines = 0;
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0x0a) lines += 1;
  return lines;
};

/** The encoding a file that is not UTF-8 is most likely in, from its first bytes and the byte that is not UTF-8. */
function likelyEncoding(start: Uint8Array, badByte: number): string {
  if ((start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff)) return 'UTF-16 (save it as UTF-8)';
  if (badByte >= 0x80) return 'Windows-1252 (Excel\'s "CSV" on Windows; ISO-8859-1 is read the same)';
  return 'not a text file';
}

/** A file that is not UTF-8, refused as a whole with one line: where, and what it likely is. */
export class NotUtf8Error extends ValidationError {
  constructor(line: number, byte: number, likely: string) {
    const hex = byte.toString(16).toUpperCase().padStart(2, '0');
    super('Could not read the CSV file', {
      csv: [
        `The file is not UTF-8: line ${line} has byte 0x${hex}; it looks like ${likely}. ` +
          'Save it as "CSV UTF-8", or import it with encoding windows-1252.',
      ],
    });
  }
}

/**
 * The file's text, piece by piece as it is read (never the whole file): Windows-1252 converted, or
 * UTF-8 checked as it goes — a byte that is not UTF-8 throws NotUtf8Error naming its line. A piece
 * holds at most what one piece of bytes decodes to, and a UTF-8 character cut between pieces waits
 * for the next.
 */
export async function* textOf(bytes: CsvBytes, encoding: CsvEncoding): AsyncIterable<string> {
  if (encoding === 'windows-1252') {
    for await (const piece of bytes()) yield windows1252(piece);
    return;
  }
  const decoder = new TextDecoder('utf-8');
  let carry = new Uint8Array(0);
  let line = 1;
  let start: Uint8Array | null = null;
  const iterator = bytes()[Symbol.asyncIterator]();
  let next = await iterator.next();
  while (!next.done) {
    const following = await iterator.next();
    const piece: Uint8Array = carry.length ? Buffer.concat([carry, next.value]) : next.value;
    start ??= piece.subarray(0, 2);
    const { bad, complete } = firstBadUtf8(piece, following.done === true);
    if (bad !== null)
      throw new NotUtf8Error(line + countLines(piece, bad), piece[bad] as number, likelyEncoding(start, piece[bad] as number));
    line += countLines(piece, complete);
    carry = piece.slice(complete);
    const text = decoder.decode(piece.subarray(0, complete), { stream: true });
    if (text) yield text;
    next = following;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
