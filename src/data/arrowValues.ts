/**
 * Arrow values (as DuckDB-WASM hands them out) turned into plain values a table, a CSV file or a
 * sort can use, and Arrow types named as DuckDB names them. Arrow is only described by shape
 * here, so this module needs no import of the Arrow library.
 */

/** The part of an Arrow DataType this module reads. */
export interface ArrowType {
  readonly typeId: number;
  readonly bitWidth?: number;
  readonly isSigned?: boolean;
  readonly precision?: number;
  readonly scale?: number;
  readonly unit?: number;
  readonly children?: readonly { readonly name: string; readonly type: ArrowType }[] | null;
}

/** A plain value: what a result table cell holds. */
export type PlainValue = string | number | boolean | null | readonly PlainValue[] | { readonly [key: string]: PlainValue };

// Arrow's Type enum (format/Schema.fbs), stable across Arrow versions.
const INT = 2, FLOAT = 3, BINARY = 4, UTF8 = 5, BOOL = 6, DECIMAL = 7, DATE = 8, TIME = 9, TIMESTAMP = 10,
  INTERVAL = 11, LIST = 12, STRUCT = 13, FIXED_SIZE_LIST = 16, MAP = 17;
// Arrow's TimeUnit enum: seconds, milli-, micro-, nanoseconds.
const PER_SECOND = [1, 1e3, 1e6, 1e9];

/** True for types whose values are numbers (right-aligned, sorted numerically). */
export function isNumericType(type: ArrowType): boolean {
  return type.typeId === INT || type.typeId === FLOAT || type.typeId === DECIMAL;
}

/** The DuckDB name of an Arrow type: BIGINT, DOUBLE, VARCHAR, DECIMAL(18,3), TIMESTAMP, INTEGER[] ... */
export function duckdbTypeName(type: ArrowType): string {
  const child = type.children?.[0]?.type;
  switch (type.typeId) {
    case INT: {
      const name = ({ 8: 'TINYINT', 16: 'SMALLINT', 32: 'INTEGER', 64: 'BIGINT' } as Record<number, string>)[type.bitWidth ?? 32] ?? 'INTEGER';
      return type.isSigned === false ? `U${name}` : name;
    }
    case FLOAT: return type.precision === 2 ? 'DOUBLE' : 'FLOAT';
    case DECIMAL: return `DECIMAL(${type.precision},${type.scale})`;
    case UTF8: return 'VARCHAR';
    case BOOL: return 'BOOLEAN';
    case BINARY: return 'BLOB';
    case DATE: return 'DATE';
    case TIME: return 'TIME';
    case TIMESTAMP: return 'TIMESTAMP';
    case INTERVAL: return 'INTERVAL';
    case LIST: case FIXED_SIZE_LIST: return `${child ? duckdbTypeName(child) : '?'}[]`;
    case STRUCT: return 'STRUCT';
    case MAP: return 'MAP';
    default: return 'NULL';
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-20 10:10:00" (UTC), with milliseconds only when there are some. */
function timestampText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${iso.slice(20, 23) === '000' ? '' : iso.slice(19, 23)}`;
}

/** "10:00:00" from a time of day in `unit`s, with the fraction only when there is one. */
function timeText(value: number | bigint, unit: number): string {
  const perSecond = PER_SECOND[unit] ?? 1;
  const whole = Number(BigInt(value) / BigInt(perSecond));
  const fraction = Number(BigInt(value) % BigInt(perSecond));
  const text = `${pad(Math.floor(whole / 3600))}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
  return fraction ? `${text}.${pad(fraction, String(perSecond).length - 1)}` : text;
}

/** A decimal from its unscaled digits: a number while that is exact, else its text. */
function decimalValue(unscaled: string, scale: number): number | string {
  const negative = unscaled.startsWith('-');
  const digits = (negative ? unscaled.slice(1) : unscaled).padStart(scale + 1, '0');
  const text = `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}${scale ? `.${digits.slice(-scale)}` : ''}`;
  return digits.replace(/^0+/, '').length <= 15 ? Number(text) : text;
}

function integerValue(value: number | bigint): number | string {
  if (typeof value === 'number') return value;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : String(value);
}

interface Listy {
  toArray(): ArrayLike<unknown>;
}

/** The plain value of one Arrow cell of `type`. */
export function plainValue(value: unknown, type: ArrowType): PlainValue {
  if (value === null || value === undefined) return null;
  const children = type.children ?? [];
  switch (type.typeId) {
    case INT: return integerValue(value as number | bigint);
    case FLOAT: return Number(value);
    case DECIMAL: return decimalValue(String(value), type.scale ?? 0);
    case BOOL: return Boolean(value);
    case UTF8: return String(value);
    case DATE: return value instanceof Date ? value.toISOString().slice(0, 10) : timestampText(Number(value)).slice(0, 10);
    case TIMESTAMP: return timestampText(Number(value));
    case TIME: return timeText(value as number | bigint, type.unit ?? 0);
    case BINARY: return [...(value as Uint8Array)].map((b) => `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    case LIST: case FIXED_SIZE_LIST: {
      const child = children[0]?.type;
      return Array.from((value as Listy).toArray(), (v) => (child ? plainValue(v, child) : null));
    }
    case STRUCT: {
      const row = value as Record<string, unknown>;
      return Object.fromEntries(children.map((c) => [c.name, plainValue(row[c.name], c.type)]));
    }
    default: {
      // INTERVAL, MAP and anything newer: their JSON form, as text.
      if (ArrayBuffer.isView(value)) return Array.from(value as Int32Array).join(' ');
      const json = (value as { toJSON?: () => unknown }).toJSON?.() ?? value;
      return typeof json === 'object' ? JSON.stringify(json, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)) : String(json);
    }
  }
}
