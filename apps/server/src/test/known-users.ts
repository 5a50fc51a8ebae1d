/**
 * The users registerAndLogin made, by session token: what injectStepped (step-up.ts) needs to step a user up
 * by SMS when a test knows only the token. One map per test file (each file runs in its own module graph).
 */
export interface KnownUser {
  token: string;
  phone: string;
  password: string;
  /** the transaction password, once a request through injectStepped has set or changed it */
  txnPassword?: string;
}

export const knownUsers = new Map<string, KnownUser>();
