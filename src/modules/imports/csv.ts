/** One record of a CSV file and the line it starts on (1-based; a quoted field may span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * RFC 4180 CSV read piece by piece (`push` each piece of text as it is read, `end` at the end): fields
 * in double quotes may hold the delimiter, quotes (doubled) and line breaks. Only the record being
 * read is held, never the file. The delimiter is the first line's: `;` when it has one and no `,`
 * (spreadsheets set to Dutch and other locales write those), else `,`. A byte order mark is ignored.
 */
export class CsvParser {
  private delimiter: string | null = null;
  /** Text of the first line while its end (and so the delimiter) is not read yet. */
  private head = '';
  private started = false;
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  /** After a closing quote, or a `\r` whose `\n` may be in the next piece. */
  private quoteEnded = false;
  private pendingCr = false;
  private line = 1;
  private recordLine = 1;

  /** The records this piece completes. */
  push(text: string): CsvRecord[] {
    let piece = text;
    if (!this.started) {
      piece = piece.replace(/^\uFEFF/, '');
      this.started = piece.length > 0;
    }
    if (this.delimiter === null) {
      this.head += piece;
      const end = this.head.search(/[\r\n]/);
      if (end < 0) return [];
      const first = this.head.slice(0, end);
      this.delimiter = first.includes(';') && !first.includes(',') ? ';' : ',';
      piece = this.head;
      this.head = '';
    }
    return this.read(piece);
  }

  /** The last record, when the file does not end with a line break. */
  end(): CsvRecord[] {
    const records: CsvRecord[] = [];
    if (this.delimiter === null) {
      const first = this.head;
      this.delimiter = first.includes(';') && !first.includes(',') ? ';' : ',';
      this.head = '';
      records.push(...this.read(first));
    }
    if (this.field !== '' || this.fields.length) records.push(this.endRecord());
    return records;
  }

  private endRecord(): CsvRecord {
    this.fields.push(this.field);
    const record = { line: this.recordLine, fields: this.fields };
    this.field = '';
    this.fields = [];
    return record;
  }

  private read(source: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    const delimiter = this.delimiter as string;
    for (let i = 0; i < source.length; i += 1) {
      const char = source[i] as string;
      if (this.pendingCr) {
        this.pendingCr = false;
        if (char === '\n') continue; // the \n of a \r\n split across pieces
      }
      if (this.quoteEnded) {
        this.quoteEnded = false;
        if (char === '"') {
          // A doubled quote inside quotes: one quote, still quoted.
          this.field += '"';
          this.quoted = true;
          continue;
        }
      }
      if (this.quoted) {
        if (char === '"') {
          this.quoted = false;
          this.quoteEnded = true;
        } else {
          if (char === '\n') this.line += 1;
          this.field += char;
        }
      } else if (char === '"' && this.field === '') {
        this.quoted = true;
      } else if (char === delimiter) {
        this.fields.push(this.field);
        this.field = '';
      } else if (char === '\n' || char === '\r') {
        if (char === '\r') this.pendingCr = true;
        records.push(this.endRecord());
        this.line += 1;
        this.recordLine = this.line;
      } else {
        this.field += char;
      }
    }
    return records;
  }
}

/** A whole text's records (a file already in memory). */
export function parseCsv(text: string): CsvRecord[] {
  const parser = new CsvParser();
  return [...parser.push(text), ...parser.end()];
}
