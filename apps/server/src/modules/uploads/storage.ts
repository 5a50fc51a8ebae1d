import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where upload bytes live, by key: an upload's id, or `thumbnailKey(id)` for its thumbnail. The default is
 * a folder under DATA_DIR, outside anything served over HTTP; or an S3-compatible bucket (s3.ts).
 */
export interface UploadStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when there is no such object */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
}

/** The key of an upload's reviewer thumbnail, stored beside the upload. */
export const thumbnailKey = (id: string) => `${id}.thumb`;

/** An upload's id or its thumbnail's key: nothing else can name a stored object. */
export const UPLOAD_KEY = /^[0-9a-f]{64}(\.thumb)?$/;

/** Files under `<dir>/<first two hex digits>/<id>`, owner-only permissions, written atomically. */
export class DiskUploadStore implements UploadStore {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!UPLOAD_KEY.test(id)) throw new Error('invalid upload key');
    return join(this.dir, id.slice(0, 2), id);
  }

  async put(id: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(id);
    await mkdir(join(this.dir, id.slice(0, 2)), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, bytes, { mode: 0o600 });
    await rename(temp, path);
  }

  async get(id: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}
