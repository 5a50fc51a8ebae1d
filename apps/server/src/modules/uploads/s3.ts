import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { UploadStore } from './storage.js';

/**
 * An S3-compatible object store for uploads (AWS S3, MinIO, Cloudflare R2, …) through the AWS SDK's S3
 * client: path-style requests (`<endpoint>/<bucket>/<key>`) to the configured endpoint, Signature Version 4.
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

export class S3UploadStore implements UploadStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // S3-compatible servers do not all know the SDK's newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(id: string): string {
    return `${this.settings.prefix ?? ''}${id}`;
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(id),
        Body: bytes,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(id: string): Promise<Buffer | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) }),
      );
      if (!answer.Body) return null;
      return Buffer.from(await answer.Body.transformToByteArray());
    } catch (error) {
      // Only a missing object is "none": a missing bucket (also HTTP 404) is a configuration error.
      if (error instanceof NoSuchKey) return null;
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(id) }));
  }

  /** Lets go of the client's sockets (the app keeps one store for its lifetime). */
  close(): void {
    this.client.destroy();
  }
}
