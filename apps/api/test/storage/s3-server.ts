/**
 * A real S3-protocol server for the tests: s3rver (npm) on 127.0.0.1, an ephemeral port, its files in a fresh
 * temporary folder, one bucket. Not a mock: the AWS SDK talks HTTP to it like to any S3-compatible service.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { S3Storage } from '../../src/storage/create-storage'

/** The server's fixed test credentials (s3rver accepts these). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

/** A running test S3 server. */
export interface TestS3 {
  endpoint: string
  /** A storage on a fresh bucket of this server. */
  storage(options?: { filesUrl?: string }): Promise<S3Storage>
  /** Stops the server, keeping its files: connections to the endpoint are refused until {@link TestS3.start}. */
  stop(): Promise<void>
  /** Starts it again on the same port with the same files. */
  start(): Promise<void>
  close(): Promise<void>
}

let buckets = 0

/** Starts s3rver on loopback. */
export async function startTestS3(): Promise<TestS3> {
  const dir = await mkdtemp(join(tmpdir(), 'spkg-s3-'))
  let server: S3rver | null = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir })
  const { port } = (await server.run()) as { port: number }
  const endpoint = `http://127.0.0.1:${port}`
  const made: S3Storage[] = []
  return {
    endpoint,
    async storage(options = {}) {
      const s = new S3Storage({
        bucket: `spkg-test-${process.pid}-${++buckets}`,
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3_TEST_CREDENTIALS,
        filesUrl: options.filesUrl,
      })
      await s.client.send(new CreateBucketCommand({ Bucket: s.bucket }))
      made.push(s)
      return s
    },
    async stop() {
      await server?.close()
      server = null
    },
    async start() {
      if (server) return
      server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir })
      await server.run()
    },
    async close() {
      for (const s of made) s.close()
      await server?.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
