// s3rver ships no types; this is the part of its API the tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { address?: string; port?: number; directory?: string; silent?: boolean });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
