import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3UploadStore } from './s3.js';
import { thumbnailKey } from './storage.js';

/** A real S3-compatible server (s3rver) on a free port, with its data in a temporary folder. */
let server: S3rver;
let endpoint: string;
let directory: string;
const stores: S3UploadStore[] = [];
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'kabuto-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'kabuto-uploads' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const store of stores) store.close();
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

function store(overrides: Partial<ConstructorParameters<typeof S3UploadStore>[0]> = {}) {
  const made = new S3UploadStore({
    endpoint,
    bucket: 'kabuto-uploads',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix: 'uploads/',
    ...overrides,
  });
  stores.push(made);
  return made;
}

const id = 'ab'.repeat(32);

describe('S3UploadStore against s3rver', () => {
  it('puts, gets and deletes an upload and its thumbnail, path-style under the prefix', async () => {
    const s3 = store();
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2, 3, 0xff, 0xd9]);
    await s3.put(id, bytes);
    await s3.put(thumbnailKey(id), Buffer.from('thumb'));
    expect(await s3.get(id)).toEqual(bytes);
    expect((await s3.get(thumbnailKey(id)))?.toString()).toBe('thumb');
    // path-style, under the prefix: the object is at <endpoint>/<bucket>/uploads/<id>
    const direct = await fetch(`${endpoint}/kabuto-uploads/uploads/${id}`);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer())).toEqual(bytes);

    await s3.delete(id);
    expect(await s3.get(id)).toBeNull();
    expect((await s3.get(thumbnailKey(id)))?.toString()).toBe('thumb');
    await s3.delete(id); // deleting what is gone is no error
  });

  it('answers null for an object that does not exist', async () => {
    expect(await store().get('cd'.repeat(32))).toBeNull();
  });

  // s3rver checks the access key but does not verify Signature Version 4 signatures (its own comment says
  // so); the signing is the SDK's, which AWS and MinIO verify.
  it('fails loudly on a bucket that does not exist and on an unknown access key', async () => {
    await expect(store({ bucket: 'no-such-bucket' }).put(id, Buffer.from('x'))).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
    await expect(store({ accessKeyId: 'NOT-A-KEY' }).put(id, Buffer.from('x'))).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
    });
    await expect(store({ bucket: 'no-such-bucket' }).get(id)).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('fails on an endpoint where nothing answers', async () => {
    const closed = store({ endpoint: 'http://127.0.0.1:1' });
    await expect(closed.get(id)).rejects.toThrow();
  });
});
