import { describe, expect, it } from 'vitest';
import { ZChangePasswordRequest, ZRegisterRequest } from './auth.js';

describe('password pairs', () => {
  it('report "passwords differ" beside other failures, not only once the rest is valid', () => {
    const result = ZRegisterRequest.safeParse({
      phone: '03',
      password: '123456',
      password_confirm: '654321',
      invite_code: '',
      sms_code: '',
    });
    const messages = result.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain('validation.passwordMismatch');
    expect(messages).toContain('validation.phoneFormat');
  });

  it('accepts equal new passwords', () => {
    expect(
      ZChangePasswordRequest.safeParse({
        old_password: 'x',
        new_password: 'abcdef',
        confirm_password: 'abcdef',
      }).success,
    ).toBe(true);
  });
});
