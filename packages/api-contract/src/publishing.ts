/**
 * Package publishing: uploads and their answers (`POST /api/stories/:slug/versions`, 201 or 422 with
 * diagnostics), the versions of a story, signing keys, the canonical manifest of a version, and the catalog's
 * view of published packages (filters, package, cover, metadata, instruction package, the version to publish).
 */
import { z } from 'zod'
import {
  CatalogPlacementSchema,
  CatalogQuerySchema,
  CatalogStoryDetailSchema,
  CatalogStorySchema,
} from './catalog'
import { pageOf, SlugSchema, TimestampSchema } from './common'

const sha = 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c'

export const PackageDiagnosticSchema = z
  .object({
    code: z.string(),
    severity: z.string(),
    message: z.string(),
    path: z.string().nullable(),
    field: z.string().optional().meta({
      description: 'JSON pointer of the offending value inside `path`, e.g. `/description` of manifest.json',
    }),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
  })
  .meta({ id: 'PackageDiagnostic' })

const SignatureStatus = z.enum(['verified', 'unverified', 'unsigned']).meta({
  description:
    '`verified`: signed by a key the uploader registered (`PUT /api/auth/signing-keys`); `unverified`: signed by another key, or the signature does not verify; `unsigned`',
})

export const PublishedVersionSchema = z
  .object({
    slug: z.string(),
    version: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    signature: SignatureStatus,
    warnings: z.array(PackageDiagnosticSchema),
  })
  .meta({
    id: 'PublishedVersion',
    examples: [
      { slug: 'crooked-inn', version: '1.0.0', sha256: sha, size: 5321, signature: 'unsigned', warnings: [] },
    ],
  })

export const PackageInvalidSchema = z
  .object({
    statusCode: z.literal(422),
    code: z.literal('PACKAGE_INVALID'),
    message: z.string(),
    omitted: z
      .object({
        count: z.number().int(),
        byCode: z.record(z.string(), z.number().int()),
      })
      .optional()
      .meta({
        description:
          'the findings left out of `diagnostics`, which holds at most 200 (the most severe first kept): how many, and how many of each code; absent when none were',
      }),
    diagnostics: z.array(PackageDiagnosticSchema),
  })
  .meta({
    id: 'PackageInvalid',
    examples: [
      {
        statusCode: 422,
        code: 'PACKAGE_INVALID',
        message: 'The package has errors: see diagnostics',
        diagnostics: [
          {
            code: 'story/unknown-part',
            severity: 'error',
            message: "no part 'story/0009-cellar.sty' in this package",
            path: 'story/0001-inn.sty',
            line: 3,
            column: 1,
          },
        ],
      },
    ],
  })

export const PackageRefSchema = z
  .object({
    url: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    version: z.string(),
    signature: SignatureStatus,
  })
  .meta({ id: 'PackageRef' })

export const StoryVersionSchema = z
  .object({
    version: z.string(),
    type: z.enum(['story', 'instruction']),
    sha256: z.string(),
    size: z.number().int(),
    signature: SignatureStatus,
    signer: z.string().nullable(),
    warnings: z.array(PackageDiagnosticSchema),
    published: z.boolean().meta({ description: 'the version the catalog shows' }),
    package: PackageRefSchema,
    cover: z.string().nullable(),
    source: z.object({
      kind: z.enum(['upload', 'repository']),
      url: z.string().nullable(),
      ref: z.string().nullable(),
      commit: z.string().nullable(),
    }),
    uploadedAt: TimestampSchema,
  })
  .meta({ id: 'StoryVersion' })

export const StoryVersionListSchema = z.object({ items: z.array(StoryVersionSchema) }).meta({
  examples: [
    {
      items: [
        {
          version: '1.0.0',
          type: 'story',
          sha256: sha,
          size: 5321,
          signature: 'unsigned',
          signer: null,
          warnings: [],
          published: true,
          package: {
            url: `http://127.0.0.1:3000/files/packages/${sha}.spkg`,
            sha256: sha,
            size: 5321,
            version: '1.0.0',
            signature: 'unsigned',
          },
          cover: null,
          source: { kind: 'upload', url: null, ref: null, commit: null },
          uploadedAt: '2026-11-26T10:00:00.000Z',
        },
      ],
    },
  ],
})

export const StoryVersionParamsSchema = z.strictObject({
  slug: SlugSchema,
  version: z
    .string()
    .min(1)
    .max(100)
    .meta({ examples: ['1.0.0'] }),
})

export const SigningKeysBodySchema = z
  .strictObject({
    keys: z.array(z.string().min(1).max(1000)).max(10).meta({
      description:
        'signify public keys (the `.pub` text `spkg keygen` writes); at most 10; replaces the list',
    }),
  })
  .meta({
    id: 'SigningKeysUpdate',
    examples: [{ keys: ['untrusted comment: spkg public key\nRWQ...base64...\n'] }],
  })

export const SigningKeysSchema = z
  .object({
    items: z.array(z.object({ fingerprint: z.string(), publicKey: z.string(), createdAt: TimestampSchema })),
  })
  .meta({
    id: 'SigningKeys',
    examples: [
      {
        items: [
          {
            fingerprint: 'ed25519:Xr2nJv0d2bC5m0ZsY7l7tB1o3zQ8o8mYV5j8b5VbI0c=',
            publicKey: 'untrusted comment: spkg public key\nRWQ...\n',
            createdAt: '2026-11-26T10:00:00.000Z',
          },
        ],
      },
    ],
  })

export const CanonicalManifestSchema = z.record(z.string(), z.unknown()).meta({
  id: 'CanonicalManifest',
  description: 'The canonical manifest of the version, with its per-file `integrity` map (SHA-256, hex)',
  examples: [
    {
      id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
      version: '1.0.0',
      integrity: { 'story/0001-inn.sty': sha },
    },
  ],
})

/** What the catalog adds to a story with a published version; null for stories without a package. */
const CatalogPackageFields = {
  packageId: z
    .string()
    .nullable()
    .meta({
      description:
        "the manifest `id` of the story's packages (fixed by its first version): the key a reader's saved progress " +
        'and `@spkg/state` use; null: no package uploaded yet',
    }),
  metadata: z.record(z.string(), z.unknown()).nullable().meta({
    description:
      'manifest metadata of the published version: title, intro, author, language, direction, description, genre, tags, license, age, content_warnings, series, season, entry, series_name, season_name, duration, readers, offline, preview, type, instruction (a field over 64 KiB of JSON is left out)',
  }),
  package: PackageRefSchema.nullable().meta({ description: 'the published package; null: no package yet' }),
  cover: z.string().nullable().meta({ description: 'address of the cover image; null: none' }),
  instructionPackage: z
    .object({ slug: z.string(), title: z.string(), package: PackageRefSchema.nullable() })
    .nullable()
    .meta({ description: 'the linked instruction and its newest package (never listed itself)' }),
}

const catalogPackageExample = {
  packageId: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
  metadata: { title: 'The Crooked Inn', language: 'en', genre: 'fantasy', tags: ['inn'], duration: 5 },
  package: {
    url: `http://127.0.0.1:3000/files/packages/${sha}.spkg`,
    sha256: sha,
    size: 5321,
    version: '1.0.0',
    signature: 'verified' as const,
  },
  cover: `http://127.0.0.1:3000/files/covers/${sha}.svg`,
  instructionPackage: null,
}

const CatalogFilterFields = {
  tag: z.string().min(1).max(100).optional().meta({ description: 'a manifest tag' }),
  language: z
    .string()
    .min(1)
    .max(50)
    .optional()
    .meta({ description: 'manifest language (BCP-47), case-insensitive' }),
  q: z.string().min(1).max(200).optional().meta({ description: 'text in the title or description' }),
}

const PublishVersionField = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .meta({ description: 'the version to publish (default: the newest); unknown: 409 NO_VALID_VERSION' })

const publishedExample = {
  slug: 'crooked-inn',
  title: 'The Crooked Inn',
  author: 'Ann Author',
  genre: 'fantasy',
  instruction: null,
  series: null,
  seriesPosition: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...catalogPackageExample,
}

/** A catalog story with its published package, cover, manifest metadata and instruction package. */
export const PublishedCatalogStorySchema = CatalogStorySchema.extend(CatalogPackageFields).meta({
  id: 'PublishedCatalogStory',
  examples: [publishedExample],
})

/** The same with the record's content (`GET /catalog/stories/:slug`). */
export const PublishedCatalogStoryDetailSchema = CatalogStoryDetailSchema.extend(CatalogPackageFields).meta({
  id: 'PublishedCatalogStoryDetail',
  examples: [{ ...publishedExample, content: '' }],
})

/** Answer of `GET /catalog/stories`. */
export const PublishedCatalogPageSchema = pageOf(PublishedCatalogStorySchema, publishedExample)

/** Query of `GET /catalog/stories`: `page`, `limit`, `genre`, `series`, `tag`, `language`, `q`. */
export const CatalogFilterQuerySchema = CatalogQuerySchema.extend(CatalogFilterFields)

/** Body of `PUT /catalog/stories/:slug`: placement plus `version`, the version to publish. */
export const CatalogPublicationSchema = CatalogPlacementSchema.safeExtend({
  version: PublishVersionField,
}).meta({
  id: 'CatalogPublication',
  examples: [
    { published: true, version: '1.0.0' },
    { published: true, series: 'harbour-tales', seriesPosition: 1 },
  ],
})
