/* global document, fetch */
/**
 * The API reference page (/api/docs): reads /api/openapi.json and shows each path with its
 * parameters, body and answers. Plain DOM, no dependencies, loaded as a script of this site so it
 * runs under the app's Content Security Policy.
 */
(function () {
  'use strict';

  const root = document.getElementById('reference');
  const SAFE = 9007199254740991;
  let components = {};

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === 'class') node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function resolve(schema) {
    if (schema && typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop();
      return { name, schema: components[name] || {} };
    }
    return { name: null, schema: schema || {} };
  }

  function typeText(schema, depth) {
    const { name, schema: s } = resolve(schema);
    if (name && depth > 0) return name;
    if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    if (s.const !== undefined) return JSON.stringify(s.const);
    const variants = s.anyOf || s.oneOf;
    if (variants) return variants.map((v) => typeText(v, depth + 1)).join(' | ');
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (types.includes('array')) {
      const item = s.items ? typeText(s.items, depth + 1) : 'any';
      return types.map((t) => (t === 'array' ? `${item}[]` : t)).join(' | ');
    }
    if (types.length === 0) return s.properties ? 'object' : 'any';
    return types.join(' | ') + (s.format ? ` (${s.format})` : '');
  }

  function limits(s) {
    const notes = [];
    if (s.minLength !== undefined) notes.push(`min length ${s.minLength}`);
    if (s.maxLength !== undefined) notes.push(`max length ${s.maxLength}`);
    // Whole numbers carry the safe-integer bounds; only bounds of their own are worth showing.
    if (s.minimum !== undefined && s.minimum !== -SAFE) notes.push(`≥ ${s.minimum}`);
    if (s.maximum !== undefined && s.maximum !== SAFE) notes.push(`≤ ${s.maximum}`);
    if (s.minItems !== undefined) notes.push(`at least ${s.minItems}`);
    if (s.maxItems !== undefined) notes.push(`at most ${s.maxItems}`);
    if (s.pattern !== undefined) notes.push(`pattern ${s.pattern}`);
    if (s.default !== undefined) notes.push(`default ${JSON.stringify(s.default)}`);
    return notes.length > 0 ? el('span', { class: 'note' }, ` — ${notes.join(', ')}`) : null;
  }

  /** Nested fields of objects (and of arrays of objects, and of each variant), a few levels deep. */
  function fields(schema, depth) {
    const { schema: s } = resolve(schema);
    if (depth > 6) return null;
    const variants = s.anyOf || s.oneOf;
    if (variants) {
      const nested = variants.map((v) => fields(v, depth + 1)).filter(Boolean);
      return nested.length > 0 ? el('div', {}, nested) : null;
    }
    if (s.items) return fields(s.items, depth + 1);
    if (!s.properties) return null;
    const required = new Set(s.required || []);
    return el(
      'ul',
      { class: 'schema' },
      Object.entries(s.properties).map(([key, property]) => {
        const p = resolve(property).schema;
        return el(
          'li',
          {},
          el('code', {}, key),
          ': ',
          el('span', { class: 'type' }, typeText(property, depth + 1)),
          required.has(key) ? el('span', { class: 'req' }, ' required') : null,
          limits(p),
          p.description ? el('span', { class: 'note' }, ` — ${p.description}`) : null,
          fields(property, depth + 1),
        );
      }),
    );
  }

  function schemaBlock(schema) {
    return el('div', {}, el('span', { class: 'type' }, typeText(schema, 0)), fields(schema, 0));
  }

  function parameters(op) {
    if (!op.parameters || op.parameters.length === 0) return null;
    return el(
      'div',
      {},
      el('h4', {}, 'Parameters'),
      el(
        'table',
        {},
        el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'In'), el('th', {}, 'Type')),
        op.parameters.map((p) =>
          el(
            'tr',
            {},
            el('td', {}, el('code', {}, p.name), p.required ? el('span', { class: 'req' }, ' required') : null),
            el('td', {}, p.in),
            el('td', {}, el('span', { class: 'type' }, typeText(p.schema, 0)), limits(resolve(p.schema).schema)),
          ),
        ),
      ),
    );
  }

  function content(body) {
    if (!body || !body.content) return null;
    return Object.entries(body.content).map(([type, media]) =>
      el('div', {}, el('code', {}, type), media.schema ? schemaBlock(media.schema) : null),
    );
  }

  function requestBody(op) {
    if (!op.requestBody) return null;
    return el(
      'div',
      {},
      el('h4', {}, op.requestBody.required ? 'Body (required)' : 'Body (optional)'),
      content(op.requestBody),
    );
  }

  function responses(op) {
    return el(
      'div',
      {},
      el('h4', {}, 'Answers'),
      Object.entries(op.responses || {}).map(([status, answer]) =>
        el(
          'div',
          {},
          el('span', { class: 'status' }, status),
          ' ',
          answer.description || '',
          status.startsWith('2') ? content(answer) : null,
        ),
      ),
    );
  }

  function operation(method, path, op) {
    return el(
      'details',
      { class: 'op', 'data-search': `${method} ${path} ${op.summary || ''}`.toLowerCase() },
      el(
        'summary',
        {},
        el('span', { class: `method ${method}` }, method.toUpperCase()),
        el('span', { class: 'path' }, path),
        el('span', { class: 'summary' }, op.summary || ''),
      ),
      el(
        'div',
        { class: 'body' },
        op.description ? el('p', {}, op.description) : null,
        op.security && op.security.length === 0 ? el('p', { class: 'note' }, 'No sign-in needed.') : null,
        parameters(op),
        requestBody(op),
        responses(op),
      ),
    );
  }

  function render(doc) {
    components = (doc.components && doc.components.schemas) || {};
    const byTag = new Map();
    for (const [path, item] of Object.entries(doc.paths || {})) {
      for (const [method, op] of Object.entries(item)) {
        const tag = (op.tags && op.tags[0]) || 'Other';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag).push(operation(method, path, op));
      }
    }
    const filter = el('input', { type: 'search', placeholder: 'Filter paths', 'aria-label': 'Filter paths' });
    const sections = [...byTag].map(([tag, ops]) => el('section', {}, el('h2', {}, tag), ops));
    filter.addEventListener('input', () => {
      const needle = filter.value.trim().toLowerCase();
      for (const section of sections) {
        let shown = 0;
        for (const op of section.querySelectorAll('details.op')) {
          const match = needle === '' || op.getAttribute('data-search').includes(needle);
          op.hidden = !match;
          if (match) shown += 1;
        }
        section.hidden = shown === 0;
      }
    });
    root.replaceChildren(
      el('h1', {}, `${doc.info.title} ${doc.info.version}`),
      el('p', { class: 'intro' }, doc.info.description || ''),
      el('p', { class: 'intro' }, 'OpenAPI document: ', el('a', { href: '/api/openapi.json' }, '/api/openapi.json')),
      el('div', { class: 'toolbar' }, filter),
      ...sections,
    );
  }

  fetch('/api/openapi.json', { credentials: 'same-origin' })
    .then((res) => {
      if (!res.ok) throw new Error(`Failed with status ${res.status}: /api/openapi.json`);
      return res.json();
    })
    .then(render)
    .catch((error) => root.replaceChildren(el('p', { class: 'error' }, String(error.message || error))));
})();
