/**
 * Packages for the core e2e tests: examples packed by the real `spkg pack` (the validator's command, run as the
 * README says, since the player may not import the validator), and hostile archives written with the repository's archive builder (`@spkg/test-utils`).
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildArchive, toEntrySpecs } from '@spkg/test-utils'

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

/** Runs the `spkg` command from source (what `pnpm -s spkg ...` runs). */
function spkg(args: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--conditions=@spkg/source', '--import', 'tsx', 'apps/validator/src/dev-bin.ts', ...args],
      { cwd: REPO },
      (err, _stdout, stderr) => (err ? reject(new Error(`spkg ${args[0]} failed: ${stderr}`)) : resolve()),
    ),
  )
}

/**
 * `spkg pack examples/<name>` (of a copy changed by `manifest` when given; then `spkg sign` with a fresh key when
 * `signed`): the package's bytes.
 */
export async function packExample(
  name: string,
  options: {
    signed?: boolean
    manifest?: (m: Record<string, unknown>) => void
    /** Changes the copy's files (its folder) before packing. */
    files?: (folder: string) => Promise<void>
  } = {},
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'spkg-core-pack-'))
  const out = join(dir, `${name}.spkg`)
  try {
    let folder = join(REPO, 'examples', name)
    if (options.manifest || options.files) {
      // A changed copy of the example.
      const copy = join(dir, name)
      await cp(folder, copy, { recursive: true })
      const m = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as Record<string, unknown>
      options.manifest?.(m)
      await options.files?.(copy)
      await writeFile(join(copy, 'manifest.json'), JSON.stringify(m, null, 2))
      folder = copy
    }
    await spkg(['pack', folder, '-o', out, '-q'])
    if (options.signed) {
      await spkg(['keygen', '-o', join(dir, 'key')])
      await spkg(['sign', out, '--key', join(dir, 'key.sec'), '-q'])
    }
    return await readFile(out)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A ZIP of stored (uncompressed) entries, names taken as given: enough to write hostile archives. */
export function storedZip(files: Record<string, string | Uint8Array>): Buffer {
  return Buffer.from(buildArchive(toEntrySpecs(files).map((entry) => ({ ...entry, method: 0 }))))
}

/** A package whose story part does not match the SHA-256 its manifest declares (`pkg/integrity-mismatch`). */
export function tamperedPackage(): Buffer {
  const declared = createHash('sha256').update('The honest text.\n').digest('hex')
  const manifest = {
    id: '0f8b6a52-3f0e-4d8e-9a43-5d1c2b7e9a10',
    title: 'Tampered',
    parts: ['story/0001-start.sty'],
    integrity: { 'story/0001-start.sty': declared },
  }
  return storedZip({
    'manifest.json': JSON.stringify(manifest),
    'story/0001-start.sty': 'The text someone changed.\n',
  })
}

/** A package with an entry that climbs out of the archive (`pkg/unsafe-path`). */
export function traversalPackage(): Buffer {
  return storedZip({ 'story.sty': 'Hello.\n', '../../evil.sty': 'Gotcha.\n' })
}

/** A one-part story: a roll of the dice, a choice of two, an ending; `manifest` fields over the defaults. */
export function smallStory(manifest: Record<string, unknown> = {}, text?: string): Buffer {
  const story =
    text ??
    `{seed 42}
# Start
You roll \${2d6} at the gate.
* Go left [#left]
  Left is dark.
* Go right [#right]
  Right is bright.
Then the road ends.
`
  return storedZip({
    'manifest.json': JSON.stringify({
      id: '3d0c8f0e-5a53-4c1e-8f0a-2b7e61f1c0aa',
      title: 'Small Story',
      parts: ['story/0001-start.sty'],
      ...manifest,
    }),
    'story/0001-start.sty': story,
  })
}

/** The files of `examples/<name>` as a repository host's zipball: every entry inside one `wrapper/` folder. */
export async function repositoryZipball(name: string, wrapper: string): Promise<Buffer> {
  const root = join(REPO, 'examples', name)
  const files: Record<string, Uint8Array> = {}
  const walk = async (dir: string, prefix: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(dir, e.name), `${prefix}${e.name}/`)
      else files[`${wrapper}/${prefix}${e.name}`] = await readFile(join(dir, e.name))
    }
  }
  await walk(root, '')
  return storedZip(files)
}
