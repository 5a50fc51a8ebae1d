/**
 * The one table of error codes (docs/adr/0005-error-codes.md). `code` goes in the envelope, `http` is
 * the HTTP status, and the message is `errors.<NAME>` in every catalogue of `messages/`.
 * Code 1 is success; 401 is the specification's "session expired" code, which the client acts on.
 */
export const OK_CODE = 1;

export const ERRORS = {
  VALIDATION: { code: 400, http: 400 },
  UNAUTHENTICATED: { code: 401, http: 401 },
  FORBIDDEN: { code: 403, http: 403 },
  NOT_FOUND: { code: 404, http: 404 },
  METHOD_NOT_ALLOWED: { code: 405, http: 405 },
  CONFLICT: { code: 409, http: 409 },
  PAYLOAD_TOO_LARGE: { code: 413, http: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 415, http: 415 },
  RATE_LIMITED: { code: 429, http: 429 },
  INTERNAL: { code: 500, http: 500 },
  UNAVAILABLE: { code: 503, http: 503 },
  // Accounts and sessions: 1000-1099
  PHONE_TAKEN: { code: 1001, http: 409 },
  INVITE_CODE_INVALID: { code: 1002, http: 422 },
  SMS_CODE_INVALID: { code: 1003, http: 422 },
  SMS_CODE_EXPIRED: { code: 1004, http: 422 },
  SMS_RESEND_TOO_SOON: { code: 1005, http: 429 },
  SMS_TOO_MANY_ATTEMPTS: { code: 1006, http: 422 },
  LOGIN_FAILED: { code: 1007, http: 401 },
  ACCOUNT_LOCKED: { code: 1008, http: 423 },
  PASSWORD_WRONG: { code: 1009, http: 422 },
  TXN_PASSWORD_NOT_SET: { code: 1010, http: 422 },
  TXN_PASSWORD_ALREADY_SET: { code: 1011, http: 409 },
  TXN_PASSWORD_WRONG: { code: 1012, http: 422 },
  PASSWORD_SAME_AS_OLD: { code: 1013, http: 422 },
  USER_ID_MISMATCH: { code: 1014, http: 403 },
  /** five wrong attempts at one secret: its uses are locked for 30 minutes (modules/auth/secrets.ts) */
  SECRET_LOCKED: { code: 1015, http: 423 },
  // Market data: 1100-1199
  STOCK_NOT_FOUND: { code: 1101, http: 404 },
  NO_MARKET_DATA: { code: 1102, http: 404 },
  WATCHLIST_FULL: { code: 1103, http: 422 },
  // Trading and the ledger: 1200-1299
  IDEMPOTENCY_KEY_REQUIRED: { code: 1201, http: 400 },
  IDEMPOTENCY_KEY_REUSED: { code: 1202, http: 409 },
  INSUFFICIENT_FUNDS: { code: 1203, http: 422 },
  QUOTE_STALE: { code: 1204, http: 409 },
  PRICE_OFF_TICK: { code: 1205, http: 422 },
  PRICE_OUTSIDE_LIMITS: { code: 1206, http: 422 },
  MIN_COLLATERAL: { code: 1207, http: 422 },
  ORDER_NOT_FOUND: { code: 1208, http: 404 },
  ORDER_NOT_PENDING: { code: 1209, http: 409 },
  POSITION_NOT_FOUND: { code: 1210, http: 404 },
  POSITION_QUANTITY: { code: 1211, http: 422 },
  STATEMENT_INVALID: { code: 1212, http: 422 },
  PTS_CASH_ONLY: { code: 1213, http: 422 },
  /** a market order larger than the order book's shown levels hold (ADR 0024) */
  BOOK_TOO_THIN: { code: 1214, http: 422 },
  // Tax accounts and NISA (ADR 0021): 1250-1259
  TAX_ACCOUNT_NOT_HELD: { code: 1251, http: 422 },
  NISA_ANNUAL_LIMIT: { code: 1252, http: 422 },
  NISA_LIFETIME_LIMIT: { code: 1253, http: 422 },
  NISA_GROWTH_LIFETIME_LIMIT: { code: 1254, http: 422 },
  // Uploads, identity, bank accounts, deposits and withdrawals: 1300-1399
  UPLOAD_EMPTY: { code: 1301, http: 422 },
  UPLOAD_TOO_LARGE: { code: 1302, http: 413 },
  UPLOAD_TYPE: { code: 1303, http: 415 },
  UPLOAD_CORRUPT: { code: 1304, http: 422 },
  UPLOAD_NOT_FOUND: { code: 1305, http: 404 },
  UPLOAD_MISSING_FILE: { code: 1306, http: 400 },
  UPLOAD_HEIC: { code: 1307, http: 415 },
  IDENTITY_REQUIRED: { code: 1311, http: 403 },
  IDENTITY_PENDING: { code: 1312, http: 409 },
  IDENTITY_ALREADY_PASSED: { code: 1313, http: 409 },
  // Account opening and suitability (ADR 0022)
  ACCOUNT_NOT_OPEN: { code: 1314, http: 403 },
  APPLICANT_UNDER_AGE: { code: 1315, http: 422 },
  SUITABILITY_NOT_MET: { code: 1316, http: 403 },
  BANK_HOLDER_MISMATCH: { code: 1321, http: 422 },
  BANK_ACCOUNT_NOT_FOUND: { code: 1322, http: 404 },
  BANK_ACCOUNT_NOT_APPROVED: { code: 1323, http: 422 },
  BANK_ACCOUNT_LIMIT: { code: 1324, http: 422 },
  BANK_CODE_UNKNOWN: { code: 1325, http: 422 },
  BRANCH_CODE_UNKNOWN: { code: 1326, http: 422 },
  YUCHO_NUMBER_INVALID: { code: 1327, http: 422 },
  WITHDRAWAL_BELOW_MIN: { code: 1331, http: 422 },
  WITHDRAWAL_EXCEEDS_AVAILABLE: { code: 1332, http: 422 },
  TRANSFER_DATE_INVALID: { code: 1333, http: 422 },
  WITHDRAWAL_DIVIDEND_ADJUSTMENT_HELD: { code: 1334, http: 422 },
  ALREADY_REVIEWED: { code: 1341, http: 409 },
  SECOND_APPROVER_SAME: { code: 1342, http: 409 },
  DEPOSIT_REASON_REQUIRED: { code: 1343, http: 422 },
  STATEMENT_ALREADY_IMPORTED: { code: 1344, http: 409 },
  STATEMENT_UNREADABLE: { code: 1345, http: 422 },
  STATEMENT_LINES_INVALID: { code: 1346, http: 422 },
  TRANSFER_NOT_FOUND: { code: 1347, http: 404 },
  TRANSFER_NOT_UNMATCHED: { code: 1348, http: 409 },
  TRANSFER_NO_CUSTOMER: { code: 1349, http: 422 },
  TRANSFER_NOT_MATCHED: { code: 1350, http: 409 },
  DEPOSIT_TOO_MANY_PENDING: { code: 1351, http: 429 },
  // The operator console: 1400-1499
  OPERATOR_LOGIN_FAILED: { code: 1401, http: 401 },
  OPERATOR_LOCKED: { code: 1402, http: 423 },
  OPERATOR_PASSWORD_CHANGE_REQUIRED: { code: 1403, http: 403 },
  OPERATOR_NAME_TAKEN: { code: 1404, http: 409 },
  INVITE_CODE_TAKEN: { code: 1405, http: 409 },
  OPERATOR_SELF_DEACTIVATE: { code: 1406, http: 409 },
  OPERATOR_LAST_ADMIN: { code: 1407, http: 409 },
  USER_NOT_FOUND: { code: 1408, http: 404 },
  // Follow-up products and dividends (issue 17, ADR 0027): 1550-1599
  PRODUCT_NOT_FOUND: { code: 1551, http: 404 },
  PRODUCT_CLOSED: { code: 1552, http: 422 },
  PRODUCT_CAP_EXCEEDED: { code: 1553, http: 422 },
  PRODUCT_BELOW_MIN: { code: 1554, http: 422 },
  PRODUCT_RISK_NOT_ACKNOWLEDGED: { code: 1555, http: 422 },
  PRODUCT_RECORD_NOT_FOUND: { code: 1556, http: 404 },
  PRODUCT_RECORD_PENDING: { code: 1557, http: 409 },
  PRODUCT_RECORD_NOT_FOLLOWING: { code: 1558, http: 409 },
  PRODUCT_UNKNOWN_STOCK: { code: 1559, http: 422 },
  PRODUCT_DEADLINE_PAST: { code: 1560, http: 422 },
  DIVIDEND_DATE_PAST: { code: 1571, http: 422 },
  DIVIDEND_DATES_ORDER: { code: 1572, http: 422 },
  DIVIDEND_DUPLICATE: { code: 1573, http: 409 },
  // IPOs and off-auction distributions: 1500-1549
  OFFERING_NOT_FOUND: { code: 1500, http: 404 },
  OFFERING_NOT_OPEN: { code: 1501, http: 409 },
  OFFERING_CANCELLED: { code: 1502, http: 409 },
  OFFERING_ABOVE_CAP: { code: 1503, http: 422 },
  OFFERING_INSUFFICIENT_CASH: { code: 1504, http: 422 },
  OFFERING_ALREADY_APPLIED: { code: 1505, http: 409 },
  OFFERING_BID_OUT_OF_RANGE: { code: 1506, http: 422 },
  OFFERING_APPLICATION_NOT_FOUND: { code: 1507, http: 404 },
  OFFERING_NOT_WITHDRAWABLE: { code: 1508, http: 409 },
  OFFERING_NOT_CONFIRMABLE: { code: 1509, http: 409 },
  OFFERING_TERMS_INVALID: { code: 1510, http: 422 },
  OFFERING_PRICE_NOT_CHANGEABLE: { code: 1511, http: 409 },
  OFFERING_NO_PREVIOUS_CLOSE: { code: 1512, http: 422 },
  // Credit loans (issue 18): 1600-1649
  LOAN_NOT_FOUND: { code: 1600, http: 404 },
  LOAN_BELOW_MIN: { code: 1601, http: 422 },
  LOAN_LIMIT_INSUFFICIENT: { code: 1602, http: 422 },
  LOAN_TOTAL_VOLUME: { code: 1603, http: 422 },
  LOAN_OVERDUE_EXISTS: { code: 1604, http: 409 },
  LOAN_PENDING_EXISTS: { code: 1605, http: 409 },
  LOAN_NAME_MISMATCH: { code: 1606, http: 422 },
  LOAN_NOT_SUITABLE: { code: 1607, http: 403 },
  LOAN_NO_PRODUCT: { code: 1608, http: 409 },
  LOAN_RATE_ABOVE_CAP: { code: 1609, http: 422 },
  LOAN_LATE_RATE_ABOVE_CAP: { code: 1610, http: 422 },
  LOAN_APPROVAL_OUT_OF_POLICY: { code: 1611, http: 422 },
  LOAN_NOT_REPAYABLE: { code: 1612, http: 409 },
  LOAN_REPAY_EXCEEDS: { code: 1613, http: 422 },
  LOAN_PARTIAL_NOT_ALLOWED: { code: 1614, http: 422 },
  LOAN_INSUFFICIENT_CASH: { code: 1615, http: 422 },
  LOAN_WITHDRAWAL_BLOCKED: { code: 1616, http: 409 },
  LOAN_ALREADY_REVIEWED: { code: 1617, http: 409 },
  LOAN_PRODUCT_NOT_FOUND: { code: 1618, http: 404 },
  // News and customer service (ADR 0029): 1650-1699
  ARTICLE_NOT_FOUND: { code: 1651, http: 404 },
  ARTICLE_RETRACTED: { code: 1652, http: 409 },
  FEED_NOT_FOUND: { code: 1653, http: 404 },
  SUPPORT_NOT_FOUND: { code: 1661, http: 404 },
  SUPPORT_TOO_FAST: { code: 1662, http: 429 },
  SUPPORT_BLOCKED_ACCOUNT: { code: 1663, http: 422 },
  SUPPORT_BLOCKED_PASSWORD: { code: 1664, http: 422 },
  SUPPORT_BLOCKED_LINK: { code: 1665, http: 422 },
  // Passkeys and step-up (issue 22, ADR 0031): 1730-1759
  /** the passkey's answer did not verify (wrong origin, no user verification, bad signature...) */
  PASSKEY_VERIFICATION_FAILED: { code: 1731, http: 422 },
  /** the challenge is unknown, already answered or expired (a replayed assertion lands here) */
  PASSKEY_CHALLENGE_INVALID: { code: 1732, http: 422 },
  PASSKEY_NOT_FOUND: { code: 1733, http: 404 },
  /** sign-in with a passkey this service does not know (removed, or another site's) */
  PASSKEY_UNKNOWN: { code: 1734, http: 401 },
  /** the action needs a fresh passkey confirmation (POST /api/step-up/options, then /verify) */
  STEP_UP_REQUIRED: { code: 1735, http: 403 },
  /** the step-up token was spent, expired, or given for another action, amount or account */
  STEP_UP_INVALID: { code: 1736, http: 403 },
  PASSKEY_LIMIT: { code: 1737, http: 422 },
  PASSKEY_ALREADY_REGISTERED: { code: 1738, http: 409 },
  SESSION_NOT_FOUND: { code: 1739, http: 404 },
  // Operators' passkeys (issue 22, ADR 0033): 1820-1839
  /** an administrator without a passkey may only register one (and sign out) until one is registered */
  OPERATOR_PASSKEY_REQUIRED: { code: 1820, http: 403 },
  /** an administrator with a passkey signs in with it; the password alone is refused */
  OPERATOR_PASSKEY_SIGN_IN: { code: 1821, http: 403 },
  /** an administrator keeps at least one passkey: register another before removing the last */
  OPERATOR_PASSKEY_LAST: { code: 1822, http: 409 },
  /** adding or removing a console passkey needs a fresh step-up (POST /api/console/step-up/...) */
  OPERATOR_STEP_UP_REQUIRED: { code: 1823, http: 403 },
  /** the operator's step-up token was spent, expired, or given for another action or passkey */
  OPERATOR_STEP_UP_INVALID: { code: 1824, http: 403 },
  /** an operator with a passkey steps up with it, not with the password */
  OPERATOR_STEP_UP_USE_PASSKEY: { code: 1825, http: 409 },
  /** the operator's password given for a step-up was wrong (counts toward the sign-in lockout) */
  OPERATOR_STEP_UP_PASSWORD_WRONG: { code: 1826, http: 403 },
  // Step-up by SMS for users without a passkey (issue 22, ADR 0031): 1800-1819
  /** a user with a passkey steps up with it, not by SMS */
  STEP_UP_USE_PASSKEY: { code: 1801, http: 409 },
  /** the SMS code was wrong, or its step-up expired or was already answered: ask for a new code */
  STEP_UP_CODE_INVALID: { code: 1802, http: 422 },
  /** the SMS step-up needs the transaction password with the code */
  STEP_UP_TXN_PASSWORD_REQUIRED: { code: 1803, http: 422 },
  /** the SMS step-up needs the login password with the code (no transaction password is set) */
  STEP_UP_PASSWORD_REQUIRED: { code: 1804, http: 422 },
  /** the action needs a fresh step-up, and a user without a passkey takes it by SMS (POST /api/step-up/sms) */
  STEP_UP_SMS_REQUIRED: { code: 1805, http: 403 },
  // Secrets that cannot be guessed (issue 22, ADR 0030): 1700-1729
  /** too many failed logins for this account or from this client: wait, or sign in with an SMS code */
  LOGIN_THROTTLED: { code: 1701, http: 429 },
  /** the day's SMS codes for this client or this number range are used up (SMS pumping) */
  SMS_DAILY_LIMIT: { code: 1702, http: 429 },
  /** a login password on the list of common and breached passwords the app ships */
  PASSWORD_TOO_COMMON: { code: 1703, http: 422 },
  // Transport and outages (ADR 0032): 1760-1789
  /** the database does not answer (down, restarting, or slower than its timeouts): retry after Retry-After */
  DATABASE_UNAVAILABLE: { code: 1760, http: 503 },
  /** a WebSocket opened from a page of another origin */
  WS_ORIGIN_REFUSED: { code: 1761, http: 403 },
  /** one client address holds the most live sockets it may (WS_MAX_PER_CLIENT) */
  WS_TOO_MANY: { code: 1762, http: 429 },
  // Four-eyes on settings (issue 22, ADR 0034): 1840-1859
  /** a change of this four-eyes setting already waits for confirmation: confirm or cancel it first */
  SETTING_PROPOSAL_PENDING: { code: 1840, http: 409 },
  /** no such pending proposal (already confirmed or cancelled, or replaced) */
  SETTING_PROPOSAL_NOT_FOUND: { code: 1841, http: 404 },
  /** the administrator who proposed a change cannot be the one who confirms it */
  SETTING_PROPOSAL_OWN: { code: 1842, http: 403 },
  /** the proposal is older than PROPOSAL_EXPIRY_HOURS: it can no longer be confirmed; propose it again */
  SETTING_PROPOSAL_EXPIRED: { code: 1843, http: 409 },
  // Home banners and images in the support chat (issue 19, ADR 0041): 1930-1949
  BANNER_NOT_FOUND: { code: 1930, http: 404 },
  /** a retracted banner is not edited or published again: make a new one */
  BANNER_RETRACTED: { code: 1931, http: 409 },
  /** only a published banner can be retracted */
  BANNER_NOT_PUBLISHED: { code: 1932, http: 409 },
  // Capacity and load shedding (issue 21, ADR 0040): 1920-1929
  /** this process holds as many requests as it takes (MAX_IN_FLIGHT): nothing was done; retry after Retry-After */
  OVERLOADED: { code: 1920, http: 503 },
} as const satisfies Record<string, { code: number; http: number }>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

export const ERROR_NAMES = Object.keys(ERRORS) as ErrorName[];

export function errorNameOf(code: number): ErrorName | undefined {
  return ERROR_NAMES.find((name) => ERRORS[name].code === code);
}

/** One failed rule of a validation error: the field (dotted path), the rule and the localized message. */
export interface FieldIssue {
  field: string;
  rule: string;
  message: string;
}
