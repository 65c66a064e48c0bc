/**
 * S3-compatible driver (AWS SDK v3). One object per key in `bucket`, with its content type, `Cache-Control`, an
 * `sha256` metadata entry and, for SVG covers, `Content-Disposition: attachment` (S3 serves these natively; it cannot
 * serve a `Content-Security-Policy` or `X-Content-Type-Options`: a CDN in front adds them, docs/operating.md). Uploads are hashed on the way and the object is removed again when the bytes do not match the
 * key; S3 makes an object visible only once it is whole, so readers never see part of one. Credentials come from
 * the SDK's usual chain (environment, shared files, instance role) unless the caller passes some. A service that
 * refuses connections, does not answer or answers 5xx (after the SDK's 3 attempts) is STORAGE_UNAVAILABLE, which
 * the API answers 503 with Retry-After (src/errors.ts).
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat as fsStat } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { checkPut, checkRange } from './fs'
import {
  assertKey,
  type ByteRange,
  contentDispositionOf,
  type FileStorage,
  isValidKey,
  keyContentType,
  keyHash,
  type ListedFile,
  type PutInfo,
  StorageError,
  type StoredFileInfo,
} from './types'

/** Options of {@link S3Storage}. */
export interface S3StorageOptions {
  bucket: string
  /** S3_ENDPOINT: an S3-compatible service (MinIO, R2, ...); absent: AWS. */
  endpoint?: string | undefined
  /** S3_REGION. @default 'us-east-1' */
  region?: string | undefined
  /** S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` addresses instead of `<bucket>.<endpoint>`. */
  forcePathStyle?: boolean | undefined
  /** FILES_URL: public addresses are `<filesUrl>/<key>`. */
  filesUrl?: string | undefined
  /** Explicit credentials (tests); absent: the SDK's default chain. */
  credentials?: S3ClientConfig['credentials']
  /** How long a connection to the service may take to open, ms (then STORAGE_UNAVAILABLE). @default 3000 */
  connectTimeoutMs?: number | undefined
  /**
   * How long a connection may stay silent mid-request, ms: a service that accepts but never answers is given up on
   * (each of the 3 attempts) instead of holding the request forever. Not a bound on a whole transfer. @default 15000
   */
  idleTimeoutMs?: number | undefined
}

type S3Error = Error & { name: string; $metadata?: { httpStatusCode?: number } }

const statusOf = (err: unknown) => (err as S3Error)?.$metadata?.httpStatusCode
const isNotFound = (err: unknown) =>
  statusOf(err) === 404 || ['NotFound', 'NoSuchKey'].includes((err as S3Error)?.name)

const unavailable = (what: string, err: unknown) =>
  err instanceof StorageError
    ? err
    : new StorageError('STORAGE_UNAVAILABLE', `S3: cannot ${what}`, { cause: err })

/** The S3 {@link FileStorage}. */
export class S3Storage implements FileStorage {
  readonly driver = 's3' as const
  readonly client: S3Client
  readonly bucket: string
  private readonly filesUrl: string | undefined

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket
    this.filesUrl = options.filesUrl?.replace(/\/+$/, '')
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint && { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials && { credentials: options.credentials }),
      // S3-compatible servers do not all know the SDK's newer default checksums; the key is the checksum here.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // The SDK waits forever by default: an unreachable or silent service must become a 503, not a hung request.
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 3000,
        socketTimeout: options.idleTimeoutMs ?? 15_000,
      },
    })
  }

  private async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null
  }

  private async upload(key: string, body: Readable | Uint8Array, size: number, info: Omit<PutInfo, 'size'>) {
    if (await this.exists(key)) return // content-addressed: same key, same bytes
    const disposition = contentDispositionOf(key)
    const hash = createHash('sha256')
    let stream: Readable | Uint8Array = body
    if (body instanceof Uint8Array) hash.update(body)
    else {
      stream = body.pipe(
        new Transform({
          transform(chunk, _enc, cb) {
            hash.update(chunk)
            cb(null, chunk)
          },
        }),
      )
      body.on('error', (err) => (stream as Readable).destroy(err))
    }
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: stream,
          ContentLength: size,
          ContentType: info.contentType,
          ...(disposition && { ContentDisposition: disposition }),
          CacheControl: 'public, max-age=31536000, immutable',
          Metadata: { sha256: info.sha256 },
        }),
      )
    } catch (err) {
      throw unavailable(`store ${key}`, err)
    }
    const actual = hash.digest('hex')
    if (actual !== info.sha256) {
      await this.delete(key)
      throw new StorageError('STORAGE_HASH_MISMATCH', `Content of ${key} hashes to ${actual}`)
    }
  }

  async putFile(key: string, localPath: string, info: PutInfo): Promise<void> {
    checkPut(key, info)
    const size = (await fsStat(localPath)).size
    if (size !== info.size)
      throw new StorageError('STORAGE_HASH_MISMATCH', `${localPath} has ${size} bytes, not ${info.size}`)
    await this.upload(key, createReadStream(localPath), size, info)
  }

  async putBytes(key: string, bytes: Uint8Array, info: Omit<PutInfo, 'size'>): Promise<void> {
    checkPut(key, info)
    await this.upload(key, bytes, bytes.byteLength, info)
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    assertKey(key)
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))
      return {
        key,
        size: h.ContentLength ?? 0,
        sha256: keyHash(key),
        contentType: h.ContentType ?? keyContentType(key),
      }
    } catch (err) {
      if (isNotFound(err)) return null
      throw unavailable(`stat ${key}`, err)
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    assertKey(key)
    if (range) {
      const s = await this.stat(key)
      if (!s) return null
      checkRange(range, s.size)
    }
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      )
      const body = r.Body
      if (body instanceof Readable) return body
      if (body && 'transformToWebStream' in body)
        return Readable.fromWeb(body.transformToWebStream() as import('node:stream/web').ReadableStream)
      throw new Error('S3: no body')
    } catch (err) {
      if (isNotFound(err)) return null
      if (statusOf(err) === 416)
        throw new StorageError('STORAGE_BAD_RANGE', `Range outside ${key}`, { cause: err })
      throw unavailable(`read ${key}`, err)
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key)
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
    } catch (err) {
      if (!isNotFound(err)) throw unavailable(`delete ${key}`, err)
    }
  }

  async list(prefix: 'packages/' | 'covers/', limit: number): Promise<ListedFile[]> {
    if (prefix !== 'packages/' && prefix !== 'covers/')
      throw new StorageError('STORAGE_BAD_KEY', `Not a storage prefix: ${String(prefix).slice(0, 40)}`)
    const out: ListedFile[] = []
    let token: string | undefined
    try {
      do {
        const r = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            MaxKeys: 1000,
            ContinuationToken: token,
          }),
        )
        for (const o of r.Contents ?? []) {
          if (out.length >= limit) break
          if (o.Key && isValidKey(o.Key))
            out.push({ key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) })
        }
        token = r.IsTruncated ? r.NextContinuationToken : undefined
      } while (token && out.length < limit)
    } catch (err) {
      throw unavailable(`list ${prefix}`, err)
    }
    return out
  }

  publicUrl(key: string): string | null {
    assertKey(key)
    return this.filesUrl ? `${this.filesUrl}/${key}` : null
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy()
  }
}
