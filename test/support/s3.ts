/**
 * A real S3-compatible server on loopback for the S3 store's tests (`s3rver`, in a temporary directory), started by
 * the test that needs it. Its credentials are s3rver's fixed development pair.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface LoopbackS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys stored in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startLoopbackS3(bucket = 'parley-test'): Promise<LoopbackS3> {
  const directory = await mkdtemp(join(tmpdir(), 'parley-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async keys() {
      // s3rver keeps each object as files under <directory>/<bucket>/<key>._S3rver_object.
      const found: string[] = [];
      const walk = async (dir: string, prefix: string) => {
        for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
          if (entry.isDirectory()) await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
          else if (entry.name.endsWith('._S3rver_object')) found.push(prefix + entry.name.slice(0, -'._S3rver_object'.length));
        }
      };
      await walk(join(directory, bucket), '');
      return found.sort();
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
