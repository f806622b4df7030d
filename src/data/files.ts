/**
 * Fetching the published Parquet files and telling apart the three outcomes the page reports
 * differently: the file is there, it is not published yet, or it is broken.
 */

/** What fetching one data file gave. */
export type FileOutcome =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'missing' }
  | { readonly kind: 'corrupt'; readonly reason: string };

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // "PAR1" opens and closes every Parquet file

function hasMagicAt(bytes: Uint8Array, offset: number): boolean {
  return MAGIC.every((byte, i) => bytes[offset + i] === byte);
}

/**
 * Classifies an HTTP answer for a data file. A 404, or an HTML page where a file should be (a
 * server that answers unknown paths with index.html), means not published yet; anything else
 * that is not a whole Parquet file is corrupt.
 */
export function classifyDataFile(status: number, contentType: string | null, bytes: Uint8Array): FileOutcome {
  if (status === 404 || status === 410) return { kind: 'missing' };
  if (status < 200 || status > 299) return { kind: 'corrupt', reason: `the server answered HTTP ${status}` };
  if (contentType?.includes('text/html')) return { kind: 'missing' };
  if (bytes.length < 12 || !hasMagicAt(bytes, 0) || !hasMagicAt(bytes, bytes.length - 4)) {
    return { kind: 'corrupt', reason: `it is not a complete Parquet file (${bytes.length} bytes)` };
  }
  return { kind: 'ok', bytes };
}

/** Fetches and classifies one data file; a network failure is reported as corrupt with its reason. */
export async function fetchDataFile(url: string): Promise<FileOutcome> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (err) {
    return { kind: 'corrupt', reason: `it could not be fetched (${err instanceof Error ? err.message : String(err)})` };
  }
  const bytes = response.ok ? new Uint8Array(await response.arrayBuffer()) : new Uint8Array();
  return classifyDataFile(response.status, response.headers.get('content-type'), bytes);
}
