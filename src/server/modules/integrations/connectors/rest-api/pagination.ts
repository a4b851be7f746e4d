/**
 * Walks a stream's pages: page number + size, offset + limit, a cursor taken from the answer's body
 * and sent back as a parameter, or the RFC 5988 Link header's rel="next". Numbered styles stop at
 * the first short page; cursor and Link styles stop when the answer names no next page. A next
 * page on another host is fetched under the same outbound policy, without the credentials.
 */
import { ConnectorError } from '../types';
import { getJson, type RestContext } from './http';
import { selectRecords, valueAt } from './selector';
import type { RestApiConfig, RestStream } from './spec';

export function streamUrl(baseUrl: string, path: string): URL {
  const base = baseUrl.replace(/\/+$/, '');
  const tail = path === '' || path.startsWith('/') ? path : `/${path}`;
  return new URL(base + tail);
}

/** The rel="next" target of a Link header, resolved against the current URL. */
export function nextLink(header: string | null, current: URL): URL | null {
  if (!header) return null;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rels = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2] ?? '')?.[1]?.split(/\s+/) ?? [];
    if (rels.includes('next')) return new URL(match[1] ?? '', current);
  }
  return null;
}

export interface PageOptions {
  /** Extra query parameters of the first request (e.g. the incremental cursor). */
  params: Record<string, string>;
  /** Stop after this many pages (discovery reads one). */
  maxPages?: number;
}

export async function* readPages(
  config: RestApiConfig,
  stream: RestStream,
  options: PageOptions,
  ctx: RestContext,
): AsyncGenerator<Record<string, unknown>[]> {
  const pagination = stream.pagination;
  const first = streamUrl(config.baseUrl, stream.path);
  for (const [k, v] of Object.entries(options.params)) first.searchParams.set(k, v);
  let url: URL | null = first;
  let page = pagination.type === 'page_number' ? pagination.startPage : 0;
  let offset = 0;
  const seenCursors = new Set<string>();

  for (let count = 0; url !== null && count < (options.maxPages ?? Infinity); count++) {
    const request: URL = new URL(url);
    if (pagination.type === 'page_number') {
      request.searchParams.set(pagination.pageParam, String(page));
      request.searchParams.set(pagination.sizeParam, String(pagination.pageSize));
    } else if (pagination.type === 'offset') {
      request.searchParams.set(pagination.offsetParam, String(offset));
      request.searchParams.set(pagination.limitParam, String(pagination.limit));
    }
    const { body, headers } = await getJson(config, request, ctx);
    const records = selectRecords(body, stream.recordSelector);
    yield records;

    switch (pagination.type) {
      case 'none':
        url = null;
        break;
      case 'page_number':
        page++;
        if (records.length < pagination.pageSize) url = null;
        break;
      case 'offset':
        offset += records.length;
        if (records.length < pagination.limit) url = null;
        break;
      case 'cursor': {
        const next = valueAt(body, pagination.cursorPath);
        if (next === undefined || next === null || next === '' || next === false || records.length === 0) {
          url = null;
          break;
        }
        const cursor = String(next);
        if (seenCursors.has(cursor)) {
          // The cursor itself is not named: errors never repeat what the remote sent.
          throw new ConnectorError('The API sent the same cursor twice: paging would never end', 'SystemError');
        }
        seenCursors.add(cursor);
        url = new URL(first);
        url.searchParams.set(pagination.cursorParam, cursor);
        break;
      }
      case 'link_header': {
        const next = nextLink(headers.get('link'), request);
        url = next !== null && next.href !== request.href ? next : null;
        break;
      }
    }
  }
}
