import { describe, expect, it } from 'vitest';
import { parseCsv } from '../src/util/csv.ts';

/** util/csv.ts: RFC 4180 as spreadsheets write it, with the line each record starts on. */
const rows = (text: string, comment?: string) => parseCsv(text, { comment }).map((r) => [r.line, r.cells, r.bad]);

describe('parseCsv', () => {
  it('plain cells, LF / CRLF / CR, no final line end, blank lines', () => {
    expect(rows('a,b\nc,d')).toEqual([[1, ['a', 'b'], false], [2, ['c', 'd'], false]]);
    expect(rows('a,b\r\nc,d\r\n')).toEqual([[1, ['a', 'b'], false], [2, ['c', 'd'], false]]);
    expect(rows('a\rb\r')).toEqual([[1, ['a'], false], [2, ['b'], false]]);
    expect(rows('a\n\nb')).toEqual([[1, ['a'], false], [2, [''], false], [3, ['b'], false]]);
    expect(rows('')).toEqual([]);
  });

  it('quoted cells: commas, doubled quotes, line ends inside, empty quoted cells, spaces around', () => {
    expect(rows('"13800000000",5')).toEqual([[1, ['13800000000', '5'], false]]);
    expect(rows('"a ""b""",x')).toEqual([[1, ['a "b"', 'x'], false]]);
    expect(rows('"x,y",""')).toEqual([[1, ['x,y', ''], false]]);
    expect(rows('"two\r\nlines",1\r\nnext,2')).toEqual([[1, ['two\r\nlines', '1'], false], [3, ['next', '2'], false]]);
    expect(rows(' "a" , b ,')).toEqual([[1, ['a', 'b', ''], false]]);
  });

  it('a UTF-8 BOM is dropped', () => {
    expect(rows('\uFEFF"mobile","quota"\r\n1,2')).toEqual([[1, ['mobile', 'quota'], false], [2, ['1', '2'], false]]);
  });

  it('malformed records are marked bad and the following ones keep their line numbers', () => {
    expect(rows('"a" x,1\nb,2')).toEqual([[1, ['a'], true], [2, ['b', '2'], false]]);
    expect(rows('ok,1\n"open,1\nc,2')).toEqual([[1, ['ok', '1'], false], [2, ['open,1\nc,2'], true]]);
    // A quote inside an unquoted cell is kept as text.
    expect(rows('a"b,1')).toEqual([[1, ['a"b', '1'], false]]);
  });

  it('comment lines where a record starts', () => {
    expect(rows('# note, with comma\na,1\n  # indented\n"#not",2', '#')).toEqual([[2, ['a', '1'], false], [4, ['#not', '2'], false]]);
  });
});
