import { createHash, createHmac } from 'node:crypto';
import type { UploadStore } from './storage.js';

/**
 * An S3-compatible object store for uploads (AWS S3, MinIO, Cloudflare R2, …), spoken to with plain HTTP
 * and Signature Version 4, path-style (`<endpoint>/<bucket>/<key>`), so that no SDK is needed.
 */
export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** key prefix inside the bucket */
  prefix?: string;
}

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (everything but unreserved characters). */
function encode(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export interface SignInput {
  method: string;
  /** the path as sent, e.g. /bucket/key */
  path: string;
  /** headers to sign (host is added from `host`) */
  headers: Record<string, string>;
  host: string;
  payloadHash: string;
  region: string;
  service?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** yyyymmddThhmmssZ */
  amzDate: string;
}

/** The Authorization header value of a request (AWS Signature Version 4). */
export function signV4(input: SignInput): string {
  const service = input.service ?? 's3';
  const headers: Record<string, string> = { host: input.host };
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value.trim();
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalPath = input.path
    .split('/')
    .map((s) => encode(decodeURIComponent(s)))
    .join('/');
  const canonicalRequest = [
    input.method,
    canonicalPath,
    '',
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

const amzDateOf = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export class S3UploadStore implements UploadStore {
  private readonly base: URL;
  constructor(
    private readonly settings: S3Settings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.base = new URL(settings.endpoint);
  }

  private async send(method: 'PUT' | 'GET' | 'DELETE', id: string, body?: Uint8Array): Promise<Response> {
    const key = `${this.settings.prefix ?? ''}${id}`;
    const path = `${this.base.pathname.replace(/\/$/, '')}/${encode(this.settings.bucket)}/${key.split('/').map(encode).join('/')}`;
    const payloadHash = sha256Hex(body ?? new Uint8Array());
    const amzDate = amzDateOf(this.now());
    const headers: Record<string, string> = { 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
    if (body) headers['content-type'] = 'application/octet-stream';
    const authorization = signV4({
      method,
      path,
      headers,
      host: this.base.host,
      payloadHash,
      region: this.settings.region,
      accessKeyId: this.settings.accessKeyId,
      secretAccessKey: this.settings.secretAccessKey,
      amzDate,
    });
    return fetch(new URL(path, this.base), {
      method,
      headers: { ...headers, authorization },
      ...(body ? { body } : {}),
    });
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    const res = await this.send('PUT', id, bytes);
    if (!res.ok) throw new Error(`S3 PUT ${id}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  }

  async get(id: string): Promise<Buffer | null> {
    const res = await this.send('GET', id);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`S3 GET ${id}: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  async delete(id: string): Promise<void> {
    const res = await this.send('DELETE', id);
    if (!res.ok && res.status !== 404) throw new Error(`S3 DELETE ${id}: HTTP ${res.status}`);
  }
}
