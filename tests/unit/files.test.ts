import { describe, expect, it } from 'vitest';
import { classifyDataFile } from '../../src/data/files';
import { fixtureBytes } from '../support/fixture-db';

const text = (s: string) => new TextEncoder().encode(s);

describe('classifyDataFile', () => {
  it('accepts a whole Parquet file', () => {
    const bytes = fixtureBytes('plan');
    expect(classifyDataFile(200, 'application/octet-stream', bytes)).toEqual({ kind: 'ok', bytes });
  });

  it('reads a 404, or an HTML page served in place of the file, as not published yet', () => {
    expect(classifyDataFile(404, 'text/html', text('<h1>404</h1>')).kind).toBe('missing');
    expect(classifyDataFile(200, 'text/html; charset=utf-8', text('<!doctype html>')).kind).toBe('missing');
  });

  it('calls a truncated file or a server error corrupt, with the reason', () => {
    const truncated = fixtureBytes('plan').slice(0, 100);
    expect(classifyDataFile(200, null, truncated)).toEqual({ kind: 'corrupt', reason: 'it is not a complete Parquet file (100 bytes)' });
    expect(classifyDataFile(500, null, new Uint8Array())).toEqual({ kind: 'corrupt', reason: 'the server answered HTTP 500' });
  });
});
