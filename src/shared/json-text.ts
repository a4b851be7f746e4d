/**
 * JSON text read with positions: where a syntax error is (line and column, which JSON.parse's
 * messages do not reliably give) and where each value starts (by JSON pointer), so a problem found
 * later in a value (a schema error) can point at its place in the text. Shared: the server checks
 * definition specifications with it and the admin editor shows the same syntax errors as you type.
 */

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in characters of the line. */
  column: number;
}

export type JsonTextResult =
  | { ok: true; value: unknown; positionOf: (pointer: string) => TextPosition | null }
  | { ok: false; message: string; position: TextPosition };

/** Deeper nesting than this is refused rather than read (the parser recurses). */
const MAX_DEPTH = 256;

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The line and column of a character offset. */
export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A JSON pointer segment (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

const describeChar = (ch: string | undefined) => (ch === undefined ? 'end of text' : `'${ch === '\n' ? '\\n' : ch}'`);

/** Reads `text` as JSON; on success, `positionOf('/a/0')` tells where that value starts. */
export function parseJsonText(text: string): JsonTextResult {
  const starts = new Map<string, number>();
  let i = 0;

  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };

  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const ch = text[i] as string;
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\u escape in a string', i);
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail(`Invalid escape ${describeChar(next === undefined ? undefined : `\\${next}`)} in a string`, i);
      } else if (ch < ' ') {
        fail(ch === '\n' ? 'Unterminated string (a line break inside quotes)' : 'Control character in a string', i);
      } else i++;
    }
    if (i >= text.length) fail('Unterminated string', start);
    i++; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };

  const readNumber = (): number => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === '-') fail(`Unexpected ${describeChar(text[i])}`);
    i += match![0].length;
    return Number(match![0]);
  };

  const readValue = (pointer: string, depth: number): unknown => {
    skipSpace();
    if (depth > MAX_DEPTH) fail(`Nested more than ${MAX_DEPTH} levels deep`);
    starts.set(pointer, i);
    const ch = text[i];
    if (ch === '{') return readObject(pointer, depth);
    if (ch === '[') return readArray(pointer, depth);
    if (ch === '"') return readString();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return readNumber();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    if (ch === undefined) return fail('Unexpected end of text: a value is missing');
    if (ch === "'") return fail('Strings must use double quotes ("), not \'');
    return fail(`Unexpected ${describeChar(ch)}: expected a value`);
  };

  const readObject = (pointer: string, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    i++; // {
    skipSpace();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      skipSpace();
      if (text[i] !== '"') {
        if (text[i] === '}') fail('Trailing comma before }');
        fail(`Expected a property name in double quotes, found ${describeChar(text[i])}`);
      }
      const key = readString();
      skipSpace();
      if (text[i] !== ':') fail(`Expected ':' after property name "${key}", found ${describeChar(text[i])}`);
      i++;
      Object.defineProperty(out, key, {
        value: readValue(`${pointer}/${pointerSegment(key)}`, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return out;
      }
      return fail(`Expected ',' or '}' after a property value, found ${describeChar(text[i])}`);
    }
  };

  const readArray = (pointer: string, depth: number): unknown[] => {
    const out: unknown[] = [];
    i++; // [
    skipSpace();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      skipSpace();
      if (text[i] === ']') fail('Trailing comma before ]');
      out.push(readValue(`${pointer}/${out.length}`, depth + 1));
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return out;
      }
      return fail(`Expected ',' or ']' after an array item, found ${describeChar(text[i])}`);
    }
  };

  try {
    const value = readValue('', 0);
    skipSpace();
    if (i < text.length) fail(`Unexpected ${describeChar(text[i])} after the end of the JSON value`);
    return {
      ok: true,
      value,
      positionOf: (pointer) => {
        const offset = starts.get(pointer);
        return offset === undefined ? null : positionAt(text, offset);
      },
    };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { ok: false, message: error.message, position: positionAt(text, error.offset) };
  }
}
