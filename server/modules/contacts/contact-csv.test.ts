import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord } from './contact-csv.js';

describe('csvCell', () => {
  it('quotes a cell holding a quote, a comma or a line break, doubling its quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it("puts ' before a cell a spreadsheet would read as a formula", () => {
    for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes null and undefined as empty cells, numbers as they are', () => {
    expect(csvRecord([null, undefined, 0, 12, ''])).toBe(',,0,12,\r\n');
  });
});
