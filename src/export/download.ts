/** Saving what the page made (CSV, Parquet, SVG, PNG) as a file, without a server round trip. */

/** A file-name part from free text: "LRANGE_100 (first 100 elements)" -> "lrange_100-first-100-elements". */
export function fileSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_.]+/g, '-').replace(/^-+|-+$/g, '') || 'chart';
}

/** Makes the browser save `data` as `name`. */
export function saveFile(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by then; the object URL only holds memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** MIME types of the files the site writes. */
export const MIME = {
  csv: 'text/csv;charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
  svg: 'image/svg+xml;charset=utf-8',
  png: 'image/png',
} as const;
