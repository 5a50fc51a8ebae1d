import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/** A verification code (`code`), or a notice to the user (`text`: a lock, a new device...). */
export interface SmsMessage {
  phone: string;
  code?: string;
  text?: string;
  purpose: string;
  sentAt: string;
}

/** Sends verification codes and notices. A real deployment plugs an SMS gateway in here. */
export interface SmsSender {
  readonly kind: string;
  send(message: SmsMessage): Promise<void>;
}

/**
 * The development sender: it sends nothing. It writes each code to the server log and appends it to
 * `DATA_DIR/dev-sms-outbox.jsonl`, so that a developer (or an end-to-end test) can read it.
 */
export class DevSmsSender implements SmsSender {
  readonly kind = 'development';
  readonly outboxPath: string;
  constructor(
    dataDir: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.outboxPath = join(dataDir, 'dev-sms-outbox.jsonl');
  }
  async send(message: SmsMessage): Promise<void> {
    this.log.warn(
      { phone: message.phone, code: message.code, text: message.text, purpose: message.purpose },
      'DEVELOPMENT SMS SENDER: no SMS is sent; the message is written here and to %s',
      this.outboxPath,
    );
    await mkdir(join(this.outboxPath, '..'), { recursive: true });
    await appendFile(this.outboxPath, `${JSON.stringify(message)}\n`, 'utf8');
  }
}
