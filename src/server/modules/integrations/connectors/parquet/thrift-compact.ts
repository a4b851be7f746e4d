/**
 * Thrift's compact protocol, as Parquet writes its footer (FileMetaData): read into plain fields
 * and written back unchanged but for what the caller edits. Only what a footer uses is here (no
 * maps of structs are needed, but maps are read and written too, so an unknown field survives).
 * The footer comes from files anyone may send (an e-mail attachment): every read is bounded by the
 * bytes there are, so a crafted footer fails fast instead of looping or filling memory.
 */

/** A varint of more bytes than a 64-bit value takes is not a footer's. */
const MAX_VARINT_BYTES = 10;
/** Structs, lists and maps nested deeper than any footer nests them. */
const MAX_DEPTH = 64;

/** Compact type ids. */
export const T = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
} as const;

export type ThriftValue = boolean | number | bigint | Uint8Array | ThriftField[] | ThriftList | ThriftMap;

export interface ThriftField {
  id: number;
  type: number;
  value: ThriftValue;
}

export interface ThriftList {
  elementType: number;
  items: ThriftValue[];
}

export interface ThriftMap {
  keyType: number;
  valueType: number;
  entries: [ThriftValue, ThriftValue][];
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public pos: number,
  ) {}

  byte(): number {
    const b = this.bytes[this.pos++];
    if (b === undefined) throw new Error('The Parquet footer ends early');
    return b;
  }

  varint(): bigint {
    let result = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) return result;
    }
    throw new Error('The Parquet footer holds a number longer than 64 bits');
  }

  /** A collection's size: each element takes a byte at least, so no more than the bytes left. */
  private size(value: bigint): number {
    if (value > BigInt(this.bytes.length - this.pos)) throw new Error('The Parquet footer ends early');
    return Number(value);
  }

  /** An element of a list or map: a boolean there takes a byte of its own (unlike a field's). */
  private element(type: number, depth: number): ThriftValue {
    return type === T.TRUE || type === T.FALSE ? this.byte() === T.TRUE : this.value(type, depth);
  }

  zigzag(): bigint {
    const v = this.varint();
    return (v >> 1n) ^ -(v & 1n);
  }

  value(type: number, depth = 0): ThriftValue {
    if (depth > MAX_DEPTH) throw new Error('The Parquet footer nests deeper than a footer does');
    switch (type) {
      case T.TRUE:
        return true;
      case T.FALSE:
        return false;
      case T.BYTE:
        return this.byte();
      case T.I16:
      case T.I32:
      case T.I64:
        return this.zigzag();
      case T.DOUBLE:
        return this.take(8);
      case T.BINARY:
        return this.take(Number(this.varint()));
      case T.LIST:
      case T.SET: {
        const header = this.byte();
        const size = this.size(header >> 4 === 15 ? this.varint() : BigInt(header >> 4));
        const elementType = header & 0x0f;
        const items: ThriftValue[] = [];
        for (let i = 0; i < size; i++) items.push(this.element(elementType, depth + 1));
        return { elementType, items };
      }
      case T.MAP: {
        const size = this.size(this.varint());
        if (size === 0) return { keyType: 0, valueType: 0, entries: [] };
        const types = this.byte();
        const map: ThriftMap = { keyType: types >> 4, valueType: types & 0x0f, entries: [] };
        for (let i = 0; i < size; i++) {
          map.entries.push([this.element(map.keyType, depth + 1), this.element(map.valueType, depth + 1)]);
        }
        return map;
      }
      case T.STRUCT:
        return this.struct(depth + 1);
      default:
        throw new Error(`Unknown Thrift type ${type} in the Parquet footer`);
    }
  }

  struct(depth = 0): ThriftField[] {
    if (depth > MAX_DEPTH) throw new Error('The Parquet footer nests deeper than a footer does');
    const fields: ThriftField[] = [];
    let last = 0;
    for (;;) {
      const header = this.byte();
      if (header === 0) return fields;
      const type = header & 0x0f;
      const delta = header >> 4;
      const id = delta === 0 ? Number(this.zigzag()) : last + delta;
      last = id;
      fields.push({ id, type, value: this.value(type, depth) });
    }
  }

  private take(length: number): Uint8Array {
    if (this.pos + length > this.bytes.length) throw new Error('The Parquet footer ends early');
    const slice = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return slice;
  }
}

class Writer {
  readonly out: number[] = [];

  varint(value: bigint): void {
    let v = value;
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) b |= 0x80;
      this.out.push(b);
    } while (v !== 0n);
  }

  zigzag(value: bigint): void {
    this.varint(value >= 0n ? value << 1n : (-value << 1n) - 1n);
  }

  value(type: number, value: ThriftValue): void {
    switch (type) {
      case T.TRUE:
      case T.FALSE:
        return;
      case T.BYTE:
        this.out.push(Number(value));
        return;
      case T.I16:
      case T.I32:
      case T.I64:
        this.zigzag(BigInt(value as bigint | number));
        return;
      case T.DOUBLE:
        this.out.push(...(value as Uint8Array));
        return;
      case T.BINARY: {
        const bytes = value as Uint8Array;
        this.varint(BigInt(bytes.length));
        for (const b of bytes) this.out.push(b);
        return;
      }
      case T.LIST:
      case T.SET: {
        const list = value as ThriftList;
        const size = list.items.length;
        if (size < 15) this.out.push((size << 4) | list.elementType);
        else {
          this.out.push(0xf0 | list.elementType);
          this.varint(BigInt(size));
        }
        for (const item of list.items) this.element(list.elementType, item);
        return;
      }
      case T.MAP: {
        const map = value as ThriftMap;
        this.varint(BigInt(map.entries.length));
        if (map.entries.length === 0) return;
        this.out.push((map.keyType << 4) | map.valueType);
        for (const [k, v] of map.entries) {
          this.element(map.keyType, k);
          this.element(map.valueType, v);
        }
        return;
      }
      case T.STRUCT:
        this.struct(value as ThriftField[]);
        return;
      default:
        throw new Error(`Unknown Thrift type ${type}`);
    }
  }

  /** An element of a list or map: a boolean there is a byte of its own. */
  private element(type: number, value: ThriftValue): void {
    if (type === T.TRUE || type === T.FALSE) this.out.push(value ? T.TRUE : T.FALSE);
    else this.value(type, value);
  }

  struct(fields: readonly ThriftField[]): void {
    let last = 0;
    for (const field of [...fields].sort((a, b) => a.id - b.id)) {
      // A boolean field's value is its type.
      const type = field.type === T.TRUE || field.type === T.FALSE ? (field.value ? T.TRUE : T.FALSE) : field.type;
      const delta = field.id - last;
      if (delta > 0 && delta <= 15) this.out.push((delta << 4) | type);
      else {
        this.out.push(type);
        this.zigzag(BigInt(field.id));
      }
      last = field.id;
      this.value(type, field.value);
    }
    this.out.push(0);
  }
}

export function readStruct(bytes: Uint8Array): ThriftField[] {
  return new Reader(bytes, 0).struct();
}

export function writeStruct(fields: readonly ThriftField[]): Uint8Array {
  const writer = new Writer();
  writer.struct(fields);
  return Uint8Array.from(writer.out);
}

/** The field of a struct with this id, if present. */
export function fieldOf(fields: readonly ThriftField[], id: number): ThriftField | undefined {
  return fields.find((f) => f.id === id);
}

export function structOf(fields: readonly ThriftField[], id: number): ThriftField[] | undefined {
  const field = fieldOf(fields, id);
  return field?.type === T.STRUCT ? (field.value as ThriftField[]) : undefined;
}

export function intOf(fields: readonly ThriftField[], id: number): number | undefined {
  const field = fieldOf(fields, id);
  return field && (field.type === T.I32 || field.type === T.I16 || field.type === T.I64)
    ? Number(field.value)
    : undefined;
}
