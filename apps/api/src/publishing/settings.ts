/**
 * Settings of package publishing, from the configuration (`PACKAGE_QUOTA_BYTES`, `UPLOADS_PER_HOUR`,
 * `VALIDATION_WORKERS`, `VALIDATION_MEMORY_MB`, `VALIDATION_TIMEOUT_MS`, `VALIDATION_QUEUE`, `VALIDATION_QUEUE_WAIT_MS`,
 * `UPLOAD_TMP_DIR`;
 * see apps/api/README.md). Leaf file.
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LIMITS } from '@spkg/manifest'

/** Publishing settings. */
export interface PublishingSettings {
  /** Largest package body, bytes: the 50 MiB uncompressed limit plus 1 MiB for the ZIP headers of 500 entries. */
  maxPackageBytes: number
  /** Stored package bytes per user, over every story and version. @default 1 GiB */
  quotaBytes: number
  /** Uploads per user per hour (429 beyond). @default 30 */
  uploadsPerHour: number
  /** Validations at once. @default 2 */
  workers: number
  /** Heap cap of one validation, MiB. @default 256 */
  memoryMb: number
  /** Time budget of one validation, ms. @default 30000 */
  timeoutMs: number
  /** Validations that may wait for a worker (503 VALIDATION_BUSY beyond). @default 8 */
  queue: number
  /** Longest wait for a worker, ms (503 VALIDATION_BUSY past it). @default 20000 */
  queueWaitMs: number
  /** Where uploads are received before they are checked. @default <os tmpdir>/spkg-uploads */
  tmpDir: string
}

/** The defaults. */
export const PUBLISHING_DEFAULTS: PublishingSettings = {
  maxPackageBytes: LIMITS.maxUncompressedBytes + 1024 * 1024,
  quotaBytes: 1024 * 1024 * 1024,
  uploadsPerHour: 30,
  workers: 2,
  memoryMb: 256,
  timeoutMs: 30_000,
  queue: 8,
  queueWaitMs: 20_000,
  tmpDir: join(tmpdir(), 'spkg-uploads'),
}
