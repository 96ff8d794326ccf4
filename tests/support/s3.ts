import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export type S3Server = {
  endpoint: string;
  /** Creates a bucket and returns the environment that points the app at it. */
  createBucket: (name: string) => Promise<Record<string, string>>;
  /** Every object of a bucket with its size. */
  list: (bucket: string) => Promise<Map<string, number>>;
  close: () => Promise<void>;
};

// s3rver's fixed development credentials: it checks request signatures against them.
const KEY = 'S3RVER';

/** A real S3-compatible server (s3rver) in this process, storing under a temporary directory. */
export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'penstand-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
  });
  return {
    endpoint,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return { S3_BUCKET: name, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: KEY, S3_SECRET_ACCESS_KEY: KEY };
    },
    async list(bucket) {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return new Map((out.Contents ?? []).map((o) => [o.Key!, o.Size ?? 0]));
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
