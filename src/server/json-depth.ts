/** How deep JSON nests, found without recursion (LIMITS.jsonMaxDepth; see http/json-body.ts). */

export const tooDeepMessage = (max: number) => `The JSON body is nested more than ${max} levels deep.`;

/** Whether JSON text opens more than `max` objects or arrays inside one another (strings skipped). */
export function jsonTextTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character; a quote ends the string.
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether a parsed value nests more than `max` objects or arrays, found without recursion. */
export function valueTooDeep(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; depth: number };
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > max) return true;
    for (const item of Object.values(next.value)) stack.push({ value: item, depth: next.depth + 1 });
  }
  return false;
}
