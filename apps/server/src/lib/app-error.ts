import { ERRORS, type ErrorName } from '@kabuto/contract';

/**
 * A failure the API reports on purpose: its name is a row of the contract's error table, its params
 * fill the message's placeholders, and its data (if any) goes out in the envelope.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: number;
  constructor(
    readonly errorName: ErrorName,
    readonly params: Readonly<Record<string, string | number>> = {},
    readonly data: unknown = null,
  ) {
    super(errorName);
    this.name = 'AppError';
    this.statusCode = ERRORS[errorName].http;
    this.code = ERRORS[errorName].code;
  }
}
