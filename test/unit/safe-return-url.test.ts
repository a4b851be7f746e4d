import { describe, expect, it } from 'vitest';
import { safeReturnUrl } from '../../src/shared/auth';

const ORIGIN = 'https://app.example.com';

describe('safeReturnUrl', () => {
  it.each([
    ['/settings/account', '/settings/account'],
    ['/models/7?tab=Configure#grid', '/models/7?tab=Configure#grid'],
    ['/', '/'],
    ['https://app.example.com/reports?page=2', '/reports?page=2'],
    ['/a/../reports', '/reports'],
    ['/search?q=%2F%2Fevil.example', '/search?q=%2F%2Fevil.example'],
  ])('keeps %j as %j', (value, expected) => {
    expect(safeReturnUrl(value, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'settings',
    'https://evil.example/x',
    'http://app.example.com/x',
    'https://app.example.com.evil.example/x',
    'https://app.example.com@evil.example/x',
    'https://app.example.com:8443/x',
    '//evil.example',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/..//evil.example',
    '/.//evil.example/x',
    '/./\\evil.example',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/login?returnUrl=/x',
    '/confirm?token=abc',
  ])('drops %j', (value) => {
    expect(safeReturnUrl(value, ORIGIN)).toBeNull();
  });

  it('works with an http origin on a port', () => {
    expect(safeReturnUrl('http://localhost:3000/tables', 'http://localhost:3000')).toBe('/tables');
    expect(safeReturnUrl('http://localhost:3001/tables', 'http://localhost:3000')).toBeNull();
  });
});
