const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A Content-Disposition for a download: a plain ASCII `filename` for old clients and the exact name
 * as RFC 5987 `filename*`. Any text may be given (a model's or table's name): quotes, backslashes,
 * path separators and control characters never reach the header, and a broken UTF-16 name (a lone
 * surrogate, which encodeURIComponent refuses) is mended first.
 */
export function attachment(fileName: string): string {
  const clean =
    fileName
      .replace(LONE_SURROGATE, '\ufffd')
      // Control characters (C0, DEL, C1) and the line and paragraph separators.
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '')
      .replace(/[/\\]/g, '_')
      .trim() || 'download';
  const ascii = clean.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, percentEncoded);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** RFC 5987's attr-char leaves out ' ( ) * which encodeURIComponent keeps. */
function percentEncoded(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}
