/**
 * Typed methods for every endpoint, each answer validated with the shared schema of `@spkg/api-contract`.
 */

import type {
  CatalogPlacementSchema,
  CreateSeriesSchema,
  CreateStorySchema,
  ProfileBodySchema,
  ReportBodySchema,
  UpdateSeriesSchema,
  UpdateStorySchema,
} from '@spkg/api-contract'
import type { ReadingState } from '@spkg/manifest'
import type { z } from 'zod'
import type { ApiClient, RequestOptions } from './client'
import { ApiClientError } from './errors'
import type { QueuedWrite } from './offline-queue'

type Contract = typeof import('@spkg/api-contract')
type SchemaName = {
  [K in keyof Contract]: Contract[K] extends z.ZodType ? K : never
}[keyof Contract]
let contract: Promise<Contract> | undefined
const loadContract = () => {
  contract ??= import('@spkg/api-contract')
  return contract
}

type In<S extends z.ZodType> = z.input<S>
type Signal = { signal?: AbortSignal }

const seg = (s: string) => encodeURIComponent(s)

/** The filters of `client.catalog.stories` (`GET /catalog/stories`). */
export type CatalogQuery = {
  page?: number
  limit?: number
  genre?: string
  series?: string
  /** A manifest tag. */
  tag?: string
  /** The manifest language (BCP-47), case-insensitive. */
  language?: string
  /** Text in the title or description. */
  q?: string
}

/** Options of `client.progress.save`. */
export interface SaveProgressOptions extends Signal {
  /**
   * The revision the state is based on: `null` for a first save (`If-None-Match: *`), a number for `If-Match`;
   * undefined saves unconditionally (the API refuses to overwrite without one: 428).
   */
  revision?: number | null
  /** When there is no connection: queue the save for replay (default) or reject with `client/network`. */
  whenOffline?: 'queue' | 'reject'
}

/** The answer of `client.progress.save`: saved with its new revision, or queued for the next replay. */
export type SaveProgressResult =
  | (z.infer<Contract['ProgressSavedSchema']> & { queued?: undefined })
  | { queued: QueuedWrite }

/** The typed endpoint groups. */
export function endpoints(core: ApiClient) {
  /**
   * Answers are validated with the shared schemas, loaded on the first typed call (a separate chunk for bundlers):
   * a player pays for zod only when it uses a typed method.
   */
  const v = async <K extends SchemaName>(
    name: K,
    method: string,
    path: string,
    opts?: RequestOptions,
  ): Promise<z.infer<Contract[K]>> => {
    const schema = (await loadContract())[name] as Contract[K]
    return core.requestParsed(schema, method, path, opts) as Promise<z.infer<Contract[K]>>
  }
  return {
    /** `/api/stories`. */
    stories: {
      list: (q: { page?: number; limit?: number } = {}, o: Signal = {}) =>
        v('StoryPageSchema', 'GET', '/api/stories', { query: q, ...o }),
      get: (slug: string, o: Signal = {}) => v('StorySchema', 'GET', `/api/stories/${seg(slug)}`, o),
      create: (body: In<typeof CreateStorySchema>, o: Signal = {}) =>
        v('StorySchema', 'POST', '/api/stories', { body, ...o }),
      update: (slug: string, body: In<typeof UpdateStorySchema>, o: Signal = {}) =>
        v('StorySchema', 'PUT', `/api/stories/${seg(slug)}`, { body, ...o }),
      remove: async (slug: string, o: Signal = {}) => {
        await core.request('DELETE', `/api/stories/${seg(slug)}`, o)
      },
    },
    /** `/catalog/*` (public reads, moderator writes). */
    catalog: {
      stories: (q: CatalogQuery = {}, o: Signal = {}) =>
        v('PublishedCatalogPageSchema', 'GET', '/catalog/stories', { query: q, anonymous: true, ...o }),
      story: (slug: string, o: Signal = {}) =>
        v('PublishedCatalogStoryDetailSchema', 'GET', `/catalog/stories/${seg(slug)}`, {
          anonymous: true,
          ...o,
        }),
      genres: (o: Signal = {}) => v('GenreListSchema', 'GET', '/catalog/genres', { anonymous: true, ...o }),
      series: (o: Signal = {}) => v('SeriesListSchema', 'GET', '/catalog/series', { anonymous: true, ...o }),
      seriesDetail: (slug: string, o: Signal = {}) =>
        v('SeriesDetailSchema', 'GET', `/catalog/series/${seg(slug)}`, { anonymous: true, ...o }),
      place: (slug: string, body: In<typeof CatalogPlacementSchema>, o: Signal = {}) =>
        v('CatalogPlacedSchema', 'PUT', `/catalog/stories/${seg(slug)}`, { body, ...o }),
      createSeries: (body: In<typeof CreateSeriesSchema>, o: Signal = {}) =>
        v('SeriesSchema', 'POST', '/catalog/series', { body, ...o }),
      updateSeries: (slug: string, body: In<typeof UpdateSeriesSchema>, o: Signal = {}) =>
        v('SeriesSchema', 'PUT', `/catalog/series/${seg(slug)}`, { body, ...o }),
      removeSeries: async (slug: string, o: Signal = {}) => {
        await core.request('DELETE', `/catalog/series/${seg(slug)}`, o)
      },
    },
    /** `/api/auth/profiles/:role`. */
    profiles: {
      get: (role: string, o: Signal = {}) => v('ProfileSchema', 'GET', `/api/auth/profiles/${seg(role)}`, o),
      save: (role: string, body: In<typeof ProfileBodySchema>, o: Signal = {}) =>
        v('ProfileSchema', 'PUT', `/api/auth/profiles/${seg(role)}`, { body, ...o }),
    },
    /** `/me/reports`. */
    reports: {
      create: (body: In<typeof ReportBodySchema>, o: Signal = {}) =>
        v('ReportSchema', 'POST', '/me/reports', { body, ...o }),
    },
    /** `/api/auth/sessions`. */
    sessions: {
      list: (o: Signal = {}) => v('SessionListSchema', 'GET', '/api/auth/sessions', o),
      revoke: async (id: string, o: Signal = {}) => {
        await core.request('DELETE', `/api/auth/sessions/${seg(id)}`, o)
      },
    },
    /** `/api/auth/events`. */
    authEvents: {
      list: (q: { limit?: number; offset?: number; subject?: string } = {}, o: Signal = {}) =>
        v('AuthEventPageSchema', 'GET', '/api/auth/events', { query: q, ...o }),
    },
    /** `/api/progress`: the caller's reading states, with revisions. */
    progress: {
      list: (o: Signal = {}) => v('ProgressListSchema', 'GET', '/api/progress', o),
      /** The saved state and its revision, or undefined when none is saved. */
      async get(
        storyId: string,
        o: Signal = {},
      ): Promise<{ state: ReadingState; revision: number } | undefined> {
        const path = `/api/progress/${seg(storyId)}`
        try {
          const answer = await core.requestRaw('GET', path, o)
          const parsed = (await loadContract()).ProgressStateSchema.safeParse(answer.body)
          const revision = /^(?:W\/)?"?(\d+)"?$/.exec(answer.headers.get('etag')?.trim() ?? '')
          if (!parsed.success || !revision) {
            throw new ApiClientError(
              'client/invalid-response',
              `GET ${path}: not a reading state with an ETag`,
              {
                method: 'GET',
                path,
                status: answer.status,
              },
            )
          }
          return { state: parsed.data as ReadingState, revision: Number(revision[1]) }
        } catch (e) {
          if (e instanceof ApiClientError && e.status === 404) return undefined
          throw e
        }
      },
      /** Saves a state; offline, queues it (see {@link SaveProgressOptions}). */
      async save(
        storyId: string,
        state: ReadingState,
        o: SaveProgressOptions = {},
      ): Promise<SaveProgressResult> {
        const path = `/api/progress/${seg(storyId)}`
        const headers: Record<string, string> = {}
        if (o.revision === null) headers['if-none-match'] = '*'
        else if (o.revision !== undefined) headers['if-match'] = `"${o.revision}"`
        const queue = () =>
          core.offline.enqueue({
            method: 'PUT',
            path,
            body: state,
            progress: { storyId, revision: o.revision },
          })
        if (!core.offline.online && o.whenOffline !== 'reject') return { queued: await queue() }
        try {
          return await v('ProgressSavedSchema', 'PUT', path, { body: state, headers, signal: o.signal })
        } catch (e) {
          if (e instanceof ApiClientError && e.code === 'client/network' && o.whenOffline !== 'reject') {
            return { queued: await queue() }
          }
          throw e
        }
      },
      remove: async (storyId: string, o: Signal & { revision?: number } = {}) => {
        const headers: Record<string, string> =
          o.revision === undefined ? {} : { 'if-match': `"${o.revision}"` }
        await core.request('DELETE', `/api/progress/${seg(storyId)}`, { headers, signal: o.signal })
      },
    },
  }
}

/** The typed endpoint groups of a client. */
export type Endpoints = ReturnType<typeof endpoints>
