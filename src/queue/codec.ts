// Parts and results as plain JSON: BigInts, typed arrays and infinite limits become tagged
// objects ({"$bigint": "123"}), turned back into values on the other side. Decoding accepts
// nothing else that is not plain JSON, and never builds objects with a prototype of their own.
import { badInput } from '../errors.js';

/** The version of the job format; a worker refuses jobs of any other (2: a job carries a list of parts). */
export const FORMAT_VERSION = 2;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function encode(value: unknown): Json {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $number: String(value) };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (value instanceof Int32Array) return { $int32: Array.from(value) };
  if (value instanceof Uint32Array) return { $uint32: Array.from(value) };
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : encode(item)));
  if (typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = encode(item);
    return out;
  }
  throw badInput(`a part cannot carry ${Object.prototype.toString.call(value)}`);
}

const TAGS: Record<string, (value: unknown) => unknown> = {
  $bigint: (v) => {
    if (typeof v !== 'string' || !/^-?\d{1,400}$/.test(v)) throw badInput('a $bigint must be a string of digits');
    return BigInt(v);
  },
  $number: (v) => {
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    throw badInput('a $number must be "Infinity" or "-Infinity"');
  },
  $int32: (v) => Int32Array.from(numbers(v, -(2 ** 31), 2 ** 31 - 1)),
  $uint32: (v) => Uint32Array.from(numbers(v, 0, 2 ** 32 - 1)),
};

function numbers(value: unknown, min: number, max: number): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v) && v >= min && v <= max)) {
    throw badInput(`a typed array must list integers from ${min} to ${max}`);
  }
  return value as number[];
}

/** The value of decoded JSON (nesting at most `depth` deep). */
export function decode(value: unknown, depth = 32): unknown {
  if (depth < 0) throw badInput('a part is nested too deeply');
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((item) => decode(item, depth - 1));
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && Object.hasOwn(TAGS, keys[0])) return TAGS[keys[0]]((value as Record<string, unknown>)[keys[0]]);
    const out: Record<string, unknown> = Object.create(null);
    for (const key of keys) {
      if (key === '__proto__') throw badInput('a part may not have a "__proto__" field');
      out[key] = decode((value as Record<string, unknown>)[key], depth - 1);
    }
    // Plain objects again, for code that checks prototypes (never with inherited fields).
    return Object.assign({}, out);
  }
  throw badInput(`a part cannot carry ${typeof value}`);
}
