import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../src/export/csv';

describe('toCsv', () => {
  it('writes a header and CRLF-terminated rows, quoting only fields that need it', () => {
    expect(toCsv(['version', 'flag_set', 'rps'], [['7.4.1', '-O2 -flto', 123456.5], ['2.6.17', 'a,b', null]])).toBe(
      'version,flag_set,rps\r\n7.4.1,-O2 -flto,123456.5\r\n2.6.17,"a,b",\r\n',
    );
  });

  it('doubles quotes and keeps line breaks inside quoted fields', () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('cr\r')).toBe('"cr\r"');
  });

  it('writes booleans, big integers and nested values as text, nulls as empty fields', () => {
    expect([true, 12345678901234567890n, undefined, null].map(csvField)).toEqual(['true', '12345678901234567890', '', '']);
    expect(csvField({ a: [1, 2n] })).toBe('"{""a"":[1,""2""]}"');
  });

  it('writes values verbatim: a leading minus or equals sign is data, not a formula', () => {
    expect(csvField('-Ofast')).toBe('-Ofast');
    expect(csvField('=1+1')).toBe('=1+1');
  });
});
