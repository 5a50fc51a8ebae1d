import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { body, createTestApp, registerAndLogin, type TestApp } from '../test/harness.js';
import { controlCharacterPath, hasControlCharacter } from './control-chars.js';

/** Issue 22: U+0000 and the other control characters are refused with a 400 in the envelope, never a 500. */
let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    // what a query builder throws when the database refuses a string's bytes (SQLSTATE 22021)
    app.get('/api/test-encoding', async () => {
      throw Object.assign(new Error('query failed'), {
        cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' }),
      });
    });
  });
  ({ token } = await registerAndLogin(t));
});
afterAll(() => t.close());

describe('control characters in a request', () => {
  it('a NUL in a query answers 400 naming the field, in the reader’s language (it reached PostgreSQL and answered 500)', async () => {
    const response = await t.app.inject({ url: '/api/trade/order?order_no=%00&lang=en', headers: { token } });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toEqual({
      code: 400,
      msg: 'Control characters (such as NUL) are not allowed here',
      data: {
        issues: [{ field: 'order_no', rule: 'control_character', message: expect.any(String) as string }],
      },
    });
    const ja = await t.app.inject({ url: '/api/trade/order?order_no=%00', headers: { token } });
    expect(body(ja).msg).toBe('制御文字（NULなど）は使用できません');
  });

  it('a control character deep in a JSON body is refused before the route runs', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { account: '0900000\u00000001', password: 'abc123' },
    });
    expect(response.statusCode).toBe(400);
    expect(body<{ issues: { field: string }[] }>(response).data.issues[0]?.field).toBe('account');
  });

  it('a database encoding error that gets past the check answers 400, not 500', async () => {
    const response = await t.app.inject({ url: '/api/test-encoding?lang=en' });
    expect(response.statusCode).toBe(400);
    expect(body(response)).toMatchObject({
      code: 400,
      msg: 'Control characters (such as NUL) are not allowed here',
    });
  });

  it('tabs and line breaks in text are kept (multi-line notes), and ordinary text passes', () => {
    expect(controlCharacterPath({ note: 'line one\nline two\tand\r\nthree' }, 'body')).toBeUndefined();
    expect(controlCharacterPath({ a: [{ b: 'x\u001by' }] }, 'body')).toBe('body.a.0.b');
    expect(controlCharacterPath({ 'k\u0000': 'v' }, 'body')).toBe('body.k?');
  });

  it('finds every C0 control character but tab, LF and CR, and DEL, wherever it sits in a string', () => {
    const refused = [
      ...Array.from({ length: 32 }, (_, i) => i).filter((i) => ![9, 10, 13].includes(i)),
      0x7f,
    ];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...refused), fc.string(), (before, code, after) => {
        const text = before + String.fromCharCode(code) + after;
        return controlCharacterPath({ deep: { text } }, 'body') === 'body.deep.text';
      }),
    );
  });

  it('the quick check every request runs agrees with the path search on any JSON value, keys included', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', '\t', '\n', '\u0000', '\u001b', '\u007f', 'x'),
    });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => hasControlCharacter(v) === (controlCharacterPath(v, 'body') !== undefined)),
    );
    expect(hasControlCharacter(Object.assign(Object.create(null) as object, { q: 'a\u0000' }))).toBe(true);
    expect(hasControlCharacter(undefined)).toBe(false);
  });
});
