import { describe, expect, it } from 'vitest';
import { emailSchema } from '../../src/shared/auth';
import { cleanPattern, isValidEmail, normaliseEmail } from '../../src/shared/validation';

describe('isValidEmail', () => {
  it.each(['a@b.co', 'first.last+tag@mail.example.org', '  padded@example.com  ', 'ÄNN@bücher.de'])(
    'accepts %j',
    (value) => {
      expect(isValidEmail(value)).toBe(true);
    },
  );

  it.each(['', '   ', 'plain', 'a@b', 'a@b.', '@b.co', 'a@.co', 'a b@c.de', 'a@@b.co', 'a@b .co'])(
    'refuses %j',
    (value) => {
      expect(isValidEmail(value)).toBe(false);
    },
  );

  it('agrees with the server schema, which also trims and lowercases', () => {
    for (const value of ['Ann@Example.COM ', 'a@b', 'x y@z.io']) {
      expect(emailSchema.safeParse(value).success, value).toBe(isValidEmail(value));
    }
    expect(emailSchema.parse('  Ann@Example.COM ')).toBe('ann@example.com');
    expect(normaliseEmail('  Ann@Example.COM ')).toBe('ann@example.com');
  });
});

describe('cleanPattern', () => {
  it.each([null, undefined, '', '   ', '^$', '//', '/^$/i'])('ignores an empty pattern %j', (pattern) => {
    expect(cleanPattern(pattern)).toBeNull();
  });

  it.each(['([', '/(/', '[z-a]', '*abc', 'a{2,1}'])('ignores the invalid pattern %j', (pattern) => {
    expect(cleanPattern(pattern)).toBeNull();
  });

  it('removes anchors and matches the whole value', () => {
    const re = cleanPattern('^[A-Z]{3}$');
    expect(re?.source).toBe('^(?:[A-Z]{3})$');
    expect(re?.test('ABC')).toBe(true);
    expect(re?.test('ABCD')).toBe(false);
    expect(re?.test('xABC')).toBe(false);
    expect(cleanPattern('[0-9]+')?.test('12a')).toBe(false);
  });

  it('removes the slashes and flags of a regex literal', () => {
    const re = cleanPattern('/^[a-z]+$/gi');
    expect(re?.flags).toBe('');
    expect(re?.test('abc')).toBe(true);
    expect(re?.test('ABC')).toBe(false);
    expect(cleanPattern(' /\\d{4}/ ')?.test('2026')).toBe(true);
  });

  it('keeps an alternation together', () => {
    const re = cleanPattern('^cat|dog$');
    expect(re?.test('cat')).toBe(true);
    expect(re?.test('dog')).toBe(true);
    expect(re?.test('catdog')).toBe(false);
    expect(re?.test('cats')).toBe(false);
  });

  it('keeps an escaped dollar, and strips an anchor after an escaped backslash', () => {
    const price = cleanPattern('^price\\$$');
    expect(price?.test('price$')).toBe(true);
    expect(cleanPattern('price\\$')?.test('price$')).toBe(true);
    const backslash = cleanPattern('a\\\\$');
    expect(backslash?.source).toBe('^(?:a\\\\)$');
    expect(backslash?.test('a\\')).toBe(true);
  });
});
