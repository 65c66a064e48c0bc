// s3rver ships no type declarations; this is the surface the test server uses.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
