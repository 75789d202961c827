/**
 * A small CSV reader (RFC 4180, as spreadsheet programs write it): cells separated by commas,
 * records by CRLF, LF or CR; a cell in double quotes may hold commas, line ends and doubled quotes
 * (`"a ""b"""` is `a "b"`); a UTF-8 BOM at the start is dropped. Lenient where it costs nothing:
 * spaces around a cell (and around a quoted one) are trimmed, a quote inside an unquoted cell is
 * kept as it is. Each record carries the number of the line it starts on, so callers can report a
 * bad record by the line a person sees in an editor, and is marked `bad` when it is not well-formed
 * (text after a closing quote, or a quote that is never closed — that record then runs to the end).
 */
export interface CsvRecord {
  /** 1-based number of the line the record starts on. */
  line: number;
  cells: string[];
  bad: boolean;
}

export function parseCsv(input: string, opts: { comment?: string } = {}): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const n = text.length;
  const records: CsvRecord[] = [];
  let i = 0;
  let line = 1;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t';
  const isEol = (c: string | undefined) => c === '\n' || c === '\r';
  /** Consumes one line end at i (CRLF counts once). */
  const eol = () => {
    if (text[i] === '\r' && text[i + 1] === '\n') i += 2;
    else i += 1;
    line++;
  };
  const skipToEol = () => {
    while (i < n && !isEol(text[i])) i++;
  };

  while (i < n) {
    const start = line;
    // A comment line (only where a record starts): skipped whole.
    if (opts.comment) {
      let j = i;
      while (isSpace(text[j])) j++;
      if (text.startsWith(opts.comment, j)) {
        i = j;
        skipToEol();
        if (i < n) eol();
        continue;
      }
    }
    const cells: string[] = [];
    let bad = false;
    for (;;) {
      while (isSpace(text[i])) i++;
      let cell = '';
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < n) {
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (isEol(c)) {
            const crlf = c === '\r' && text[i + 1] === '\n';
            cell += crlf ? '\r\n' : c;
            eol();
            continue;
          }
          cell += c;
          i++;
        }
        if (!closed) bad = true;
        while (isSpace(text[i])) i++;
        if (i < n && text[i] !== ',' && !isEol(text[i])) {
          bad = true;
          skipToEol();
        }
      } else {
        const from = i;
        while (i < n && text[i] !== ',' && !isEol(text[i])) i++;
        cell = text.slice(from, i).trim();
      }
      cells.push(cell);
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (i < n) eol();
    records.push({ line: start, cells, bad });
  }
  return records;
}
