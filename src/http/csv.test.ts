import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('csvCell', () => {
  it('leaves plain text and numbers alone', () => {
    expect(csvCell('order-1')).toBe('order-1');
    expect(csvCell(123456)).toBe('123456');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes, line breaks and edge spaces, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell(' padded ')).toBe('" padded "');
  });

  it.each(['=1+1', '=A1', '+1+1', '-1+cmd', "-2+3+cmd|' /C calc'!A0", '+HYPERLINK("http://evil.example")', '-SUM(A1)', '@SUM(A1)', '\tcmd', '\rcmd', '=HYPERLINK("http://evil.example")', '- 1'])(
    'defuses a formula: %j',
    (value) => {
      const cell = csvCell(value);
      expect(cell.replace(/^"/, '').startsWith("'")).toBe(true);
      expect(cell).toContain(value.replace(/"/g, '""'));
    },
  );

  it.each(['-zEfONAIgv3ncCVLp6AOHQ', '-1', '+977', '-12.50', '-A1'])('keeps a plain signed word or number as it is: %j', (value) => {
    expect(csvCell(value)).toBe(value);
  });

  it('does not touch a formula character later in the text', () => {
    expect(csvCell('a=1')).toBe('a=1');
    expect(csvCell('me@example.com')).toBe('me@example.com');
  });
});

describe('csvLine', () => {
  it('writes one row with a CRLF line end', () => {
    expect(csvLine([1, 'x,y', '=2', null])).toBe('1,"x,y",\'=2,\r\n');
  });
});
