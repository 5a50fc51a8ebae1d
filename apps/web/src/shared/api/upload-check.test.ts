import { UPLOAD_MAX_BYTES } from '@kabuto/contract';
import { describe, expect, it } from 'vitest';
import { fileProblem } from './upload-check';

describe('a chosen photo before it is sent', () => {
  it('is refused when empty or over 10 MB, and otherwise left to the server to judge by content', () => {
    expect(fileProblem({ size: 0 })).toBe('errors.UPLOAD_EMPTY');
    expect(fileProblem({ size: UPLOAD_MAX_BYTES + 1 })).toBe('errors.UPLOAD_TOO_LARGE');
    expect(fileProblem({ size: UPLOAD_MAX_BYTES })).toBeNull();
    expect(fileProblem({ size: 1 })).toBeNull();
  });
});
