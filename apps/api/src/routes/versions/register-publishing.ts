/**
 * Package publishing wired into the app: the validation pool (closed with the app), the storage (the
 * one the app decorates, else one from the configuration) and the routes.
 */
import type { FastifyInstance } from 'fastify'
import { type Config, PUBLISHING_DEFAULTS, type PublishingSettings } from '../../config'
import type { Db } from '../../db/connection'
import { createValidationPool, type ValidationPool } from '../../publishing/validation-pool'
import { createStorage, type FileStorage } from '../../storage/create-storage'
import { type ImportRoutesOptions, importRoutes } from './import-routes'
import { publishingRoutes } from './versions-routes'

declare module 'fastify' {
  interface FastifyInstance {
    /** Package publishing of this instance (the seed and the import use it). */
    publishing: PublishingHandle
  }
}

/** What the publishing code of an instance shares. */
export interface PublishingHandle {
  storage: FileStorage
  pool: ValidationPool
  settings: PublishingSettings
}

/** What {@link registerPublishing} may be handed (tests, benchmarks, the seed). */
export interface PublishingDeps {
  storage?: FileStorage
  /** The validation pool to use instead of one made from the settings (tests: a pool that holds its jobs). */
  pool?: ValidationPool
  settings?: Partial<PublishingSettings>
  /** Repository import: a CA to trust, loopback hosts allowed (tests against a fake host). */
  repoNode?: ImportRoutesOptions['node']
}

/** The part of the configuration that publishing reads. */
export type PublishingConfig = Pick<Config, 'publishing' | 'publicUrl' | 'repo' | 'storage'>

/** The settings of a configuration, with overrides. */
export function publishingSettings(
  config: Pick<Config, 'publishing'>,
  overrides: Partial<PublishingSettings> = {},
): PublishingSettings {
  return { ...PUBLISHING_DEFAULTS, ...config.publishing, ...overrides }
}

/** Registers the publishing routes; returns what the seed needs. */
export async function registerPublishing(
  app: FastifyInstance,
  config: PublishingConfig,
  db: Db,
  deps: PublishingDeps = {},
): Promise<PublishingHandle> {
  const settings = publishingSettings(config, deps.settings)
  const storage =
    deps.storage ?? (app as unknown as { storage?: FileStorage }).storage ?? createStorage(config)
  const pool =
    deps.pool ??
    createValidationPool({
      ...settings,
      onBundleError: (err) =>
        app.log.warn({ err }, 'validation worker: no bundle (esbuild failed); running it through tsx'),
    })
  app.addHook('onClose', async () => pool.close())
  await app.register(publishingRoutes, { db, storage, pool, settings, publicUrl: config.publicUrl })
  await app.register(importRoutes, {
    db,
    storage,
    pool,
    settings,
    repo: config.repo,
    ...(deps.repoNode && { node: deps.repoNode }),
  })
  const handle = { storage, pool, settings }
  app.decorate('publishing', handle)
  return handle
}
