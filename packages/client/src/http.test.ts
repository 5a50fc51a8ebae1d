import { describe, expect, it } from 'vitest';
import { CLIENT_CODES } from './api-error.js';
import { failureOf, filenameOf, urlOf } from './http.js';

describe('urlOf', () => {
  it('adds the set query values and lang last', () => {
    expect(urlOf('/api', '/x', { a: 1, b: null, c: undefined, d: '', e: true }, 'jp')).toBe(
      '/api/x?a=1&d=&e=true&lang=jp',
    );
  });

  it('can leave empty texts out', () => {
    expect(urlOf('/api/console', '/users', { q: '', page: 2 }, 'en', true)).toBe(
      '/api/console/users?page=2&lang=en',
    );
  });
});

describe('filenameOf', () => {
  it('prefers the UTF-8 form and reads the plain one', () => {
    expect(filenameOf(`attachment; filename="a.csv"; filename*=UTF-8''%E6%98%8E%E7%B4%B0.csv`)).toBe(
      '明細.csv',
    );
    expect(filenameOf('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(filenameOf('attachment; filename=b.csv')).toBe('b.csv');
    expect(filenameOf(null)).toBeNull();
  });
});

describe('failureOf', () => {
  it('takes the session-expired code for a lost session, whatever the HTTP status', () => {
    const failure = failureOf(200, { code: 401, msg: 'expired', data: null }, 'bad');
    expect(failure.kind).toBe('unauthenticated');
    expect(failure.error).toMatchObject({ code: 401, msg: 'expired', status: 200 });
  });

  it('takes an HTTP 401 without an envelope for a lost session with no msg', () => {
    expect(failureOf(401, '<html>', 'bad')).toMatchObject({ kind: 'unauthenticated', error: { msg: '' } });
  });

  it('keeps a failed login (401 with its own code) a normal failure', () => {
    expect(failureOf(401, { code: 1007, msg: 'wrong', data: null }, 'bad')).toMatchObject({
      kind: 'failure',
      error: { code: 1007, msg: 'wrong' },
    });
  });

  it('calls anything else without an envelope a bad response with the HTTP status', () => {
    expect(failureOf(502, { oops: true }, 'bad')).toMatchObject({
      kind: 'failure',
      error: { code: CLIENT_CODES.badResponse, msg: 'bad', status: 502 },
    });
  });
});
