import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where upload bytes live. The default is a folder under DATA_DIR, outside anything served over HTTP. */
export interface UploadStore {
  put(id: string, bytes: Uint8Array): Promise<void>;
  /** null when there is no such object */
  get(id: string): Promise<Buffer | null>;
}

const ID = /^[0-9a-f]{64}$/;

/** Files under `<dir>/<first two hex digits>/<id>`, owner-only permissions, written atomically. */
export class DiskUploadStore implements UploadStore {
  constructor(private readonly dir: string) {}

  private path(id: string): string {
    if (!ID.test(id)) throw new Error('invalid upload id');
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
}
