import { ERRORS } from '@kabuto/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error.js';
import { applyRefusalToField, applyServerIssues } from './server-issues.js';

describe('server refusals at their fields', () => {
  it('puts a wrong transaction password on the password field with the server’s message', () => {
    const setError = vi.fn();
    const wrong = new ApiError({
      code: ERRORS.TXN_PASSWORD_WRONG.code,
      msg: '取引パスワードが正しくありません',
      status: 422,
    });
    expect(applyRefusalToField(wrong, { [ERRORS.TXN_PASSWORD_WRONG.code]: 'txn_password' }, setError)).toBe(
      true,
    );
    expect(setError).toHaveBeenCalledWith('txn_password', {
      type: 'server',
      message: '取引パスワードが正しくありません',
    });
  });

  it('leaves other refusals and non-API errors alone', () => {
    const setError = vi.fn();
    const other = new ApiError({ code: ERRORS.INSUFFICIENT_FUNDS.code, msg: 'no', status: 409 });
    const fields = { [ERRORS.TXN_PASSWORD_WRONG.code]: 'txn_password' } as const;
    expect(applyRefusalToField(other, fields, setError)).toBe(false);
    expect(applyRefusalToField(new TypeError('Failed to fetch'), fields, setError)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });

  it('still puts validation issues on their named fields', () => {
    const setError = vi.fn();
    const invalid = new ApiError({
      code: 400,
      msg: 'Check',
      status: 400,
      data: { issues: [{ field: 'amount', rule: 'x', message: 'Too small' }] },
    });
    applyServerIssues(invalid, ['amount'], setError);
    expect(setError).toHaveBeenCalledWith('amount', { type: 'server', message: 'Too small' });
  });
});
