/**
 * An author's whole path from a new story to a played package: a new story made with `spkg init`,
 * edited through the language server (a link to a scene that does not exist yet, its diagnostic,
 * the scene added, the diagnostic gone), mapped, packed minified, signed, encrypted, validated by
 * the CI step of `action.yml` and played to the new scene. Every command runs in a shell from a
 * temporary folder, as `spkg` and `spkg-language-server` on PATH: from the sources by default,
 * the built `dist/` files with SPKG_WALKTHROUGH_BUILT=1 (after `pnpm build`). The transcript
 * (commands and their key output) is written to the file SPKG_WALKTHROUGH names, if any.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { unzipSync } from 'fflate'
import { expect, it } from 'vitest'
import { ACTION_REF } from '../src/project'

const ROOT = join(__dirname, '../../..')
const BUILT = process.env.SPKG_WALKTHROUGH_BUILT === '1'
const transcript: string[] = []

/** `spkg`, `spkg-language-server` and an `npx` stand-in (for the action's step) in a bin folder. */
function binFolder(): string {
  const bin = mkdtempSync(join(tmpdir(), 'spkg-walk-bin-'))
  const tsx = `--conditions=@spkg/source --import '${join(ROOT, 'node_modules/tsx/dist/loader.mjs')}'`
  const command = (built: string, source: string) =>
    BUILT ? `exec node '${join(ROOT, built)}' "$@"\n` : `exec node ${tsx} '${join(ROOT, source)}' "$@"\n`
  const scripts: Record<string, string> = {
    spkg: command('apps/validator/dist/bin.js', 'apps/validator/src/bin.ts'),
    'spkg-language-server': command(
      'packages/language-server/dist/bin.js',
      'packages/language-server/src/node/bin.ts',
    ),
    // What the action runs: `npx --yes @spkg/validator@<version> validate ...`, here this spkg.
    npx: '[ "$1" = --yes ] || exit 99\ncase "$2" in @spkg/validator@*) ;; *) exit 98 ;; esac\nshift 2\nexec spkg "$@"\n',
  }
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}`)
    chmodSync(join(bin, name), 0o755)
  }
  return bin
}

/** Runs a command line in `cwd` with the bin folder first on PATH; records it and its output. */
function shell(cwd: string, bin: string, line: string, env: Record<string, string> = {}) {
  const r = spawnSync('bash', ['-e', '-c', line], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, ...env },
  })
  transcript.push(`$ ${line}`, ...`${r.stdout}${r.stderr}`.trimEnd().split('\n'), '')
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** The step of `action.yml` (its `run: |` block, dedented), as the action test reads it. */
function actionStep(): string {
  const lines = readFileSync(join(ROOT, 'action.yml'), 'utf8').split('\n')
  const at = lines.findIndex((l) => /^\s+run: \|$/.test(l))
  const body: string[] = []
  for (const l of lines.slice(at + 1)) {
    if (l.trim() !== '' && !l.startsWith('        ')) break
    body.push(l.slice(8))
  }
  return body.join('\n').trim()
}

interface Published {
  uri: string
  diagnostics: Array<{ code: string; message: string; range: { start: { line: number; character: number } } }>
}

/** An editor's side of `spkg-language-server --stdio`: JSON-RPC with Content-Length framing. */
function editor(child: ChildProcess) {
  let buffer = Buffer.alloc(0)
  let nextId = 0
  const answers = new Map<number, (result: unknown) => void>()
  const published: Published[] = []
  const waiters: Array<() => void> = []
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (let end = buffer.indexOf('\r\n\r\n'); end >= 0; end = buffer.indexOf('\r\n\r\n')) {
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1])
      if (buffer.length < end + 4 + length) return
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'))
      buffer = buffer.subarray(end + 4 + length)
      if (message.method === 'textDocument/publishDiagnostics') published.push(message.params)
      else if (message.id !== undefined && !message.method) answers.get(message.id)?.(message.result)
      for (const w of waiters.splice(0)) w()
    }
  })
  const send = (message: object) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }))
    child.stdin!.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]))
  }
  return {
    request: (method: string, params: unknown) =>
      new Promise<unknown>((resolve) => {
        const id = ++nextId
        answers.set(id, resolve)
        send({ id, method, params })
      }),
    notify: (method: string, params: unknown) => send({ method, params }),
    /** The first diagnostics published for `uri` after `from` (an index into all published) that pass `accept`. */
    async diagnostics(uri: string, from: number, accept: (p: Published) => boolean): Promise<Published> {
      const deadline = Date.now() + 60_000
      for (;;) {
        const found = published.slice(from).find((p) => p.uri === uri && accept(p))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 1_000).unref()
        })
      }
    },
    get count() {
      return published.length
    },
  }
}

const brief = (p: Published) =>
  p.diagnostics.length === 0
    ? 'no diagnostics'
    : p.diagnostics
        .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`)
        .join('; ')

it('takes a new story from spkg init through the language server, map, minified signed encrypted package, CI and play', async () => {
  const bin = binFolder()
  const cwd = mkdtempSync(join(tmpdir(), 'spkg-walk-'))
  transcript.push(
    `# spkg: an author's walkthrough (${BUILT ? 'built dist/ commands' : 'commands from the sources'}), ${new Date().toISOString().slice(0, 10)}`,
    '',
  )

  // 1. A new story.
  const init = shell(cwd, bin, 'spkg init lighthouse --title "The Lighthouse"')
  expect(init.code).toBe(0)
  expect(init.stdout).toContain('created lighthouse: manifest.json, story/0001-start.sty, story/0002-end.sty')
  const workflow = readFileSync(join(cwd, 'lighthouse/.github/workflows/spkg.yml'), 'utf8')
  expect(workflow).toContain(`- uses: ${ACTION_REF}\n`)
  transcript.push(`(.github/workflows/spkg.yml uses ${ACTION_REF}, the action.yml of this repository)`, '')

  // 2. Edited in an editor through the language server.
  const start = join(cwd, 'lighthouse/story/0001-start.sty')
  const end = join(cwd, 'lighthouse/story/0002-end.sty')
  const startUri = pathToFileURL(start).href
  const endUri = pathToFileURL(end).href
  const server = spawn(join(bin, 'spkg-language-server'), ['--stdio'], {
    cwd,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME },
  })
  try {
    const lsp = editor(server)
    const hello = (await lsp.request('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(cwd).href,
      capabilities: {},
    })) as { serverInfo?: { name: string } }
    expect(hello.serverInfo?.name).toBe('spkg-language-server')
    lsp.notify('initialized', {})
    transcript.push('$ spkg-language-server --stdio   # driven by an editor: JSON-RPC over stdio')

    const startText = readFileSync(start, 'utf8')
    let mark = lsp.count
    lsp.notify('textDocument/didOpen', {
      textDocument: { uri: startUri, languageId: 'spkg-story', version: 1, text: startText },
    })
    const opened = await lsp.diagnostics(startUri, mark, () => true)
    expect(opened.diagnostics).toEqual([])
    transcript.push(`open story/0001-start.sty: ${brief(opened)}`)

    // A link to a scene that 0002-end.sty does not have yet.
    const linked = startText.replace(
      'The story begins. Write your opening here.',
      'The story begins. Or take the [lighthouse stair > 0002-end.sty:tower].',
    )
    expect(linked).not.toBe(startText)
    mark = lsp.count
    lsp.notify('textDocument/didChange', {
      textDocument: { uri: startUri, version: 2 },
      contentChanges: [{ text: linked }],
    })
    const broken = await lsp.diagnostics(startUri, mark, (p) => p.diagnostics.length > 0)
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['story/unknown-id'])
    expect(broken.diagnostics[0]?.message).toContain('#tower')
    transcript.push(
      `type a link [lighthouse stair > 0002-end.sty:tower] in story/0001-start.sty: ${brief(broken)}`,
    )

    // The scene, added in the other part: both parts clear (the folder is checked again).
    const endText = readFileSync(end, 'utf8')
    const withTower = `${endText}## The Tower [#tower]\nYou climb to the lamp and light it.\n-> END\n`
    lsp.notify('textDocument/didOpen', {
      textDocument: { uri: endUri, languageId: 'spkg-story', version: 1, text: endText },
    })
    mark = lsp.count
    lsp.notify('textDocument/didChange', {
      textDocument: { uri: endUri, version: 2 },
      contentChanges: [{ text: withTower }],
    })
    const fixed = await lsp.diagnostics(startUri, mark, (p) => p.diagnostics.length === 0)
    const endClean = await lsp.diagnostics(endUri, mark, () => true)
    expect(endClean.diagnostics).toEqual([])
    transcript.push(
      `add "## The Tower [#tower]" to story/0002-end.sty: story/0001-start.sty ${brief(fixed)}, story/0002-end.sty ${brief(endClean)}`,
    )
    // Completion inside the link now offers the new scene; the outline lists it.
    const line = linked.split('\n').findIndex((l) => l.includes('0002-end.sty:tower'))
    const character = (linked.split('\n')[line] as string).indexOf('0002-end.sty:tower')
    const items = (await lsp.request('textDocument/completion', {
      textDocument: { uri: startUri },
      position: { line, character },
    })) as Array<{ label: string }>
    expect(items.map((i) => i.label)).toContain('0002-end.sty:tower')
    const symbols = (await lsp.request('textDocument/documentSymbol', {
      textDocument: { uri: endUri },
    })) as Array<{ name: string; detail: string; children?: Array<{ name: string }> }>
    const names = symbols.flatMap((s) => [s.name, ...(s.children ?? []).map((c) => c.name)])
    expect(names).toContain('The Tower')
    transcript.push(
      `completion in the link offers 0002-end.sty:tower; outline of story/0002-end.sty: ${names.join(', ')}`,
    )
    await lsp.request('shutdown', null)
    lsp.notify('exit', null)
    // The editor saves both files.
    writeFileSync(start, linked)
    writeFileSync(end, withTower)
    transcript.push('save both files', '')
  } finally {
    if (server.exitCode === null) server.kill()
  }

  // 3. The map.
  const map = shell(cwd, bin, 'spkg map lighthouse -o map.svg')
  expect(map.code).toBe(0)
  const svg = readFileSync(join(cwd, 'map.svg'), 'utf8')
  expect(svg).toMatch(/^<(\?xml|svg)/)
  expect(svg).toContain('Tower #tower')
  expect(svg).toContain('lighthouse stair')

  // 4. Packed minified, signed (keys kept outside the story folder), encrypted.
  mkdirSync(join(cwd, 'keys'))
  expect(shell(cwd, bin, 'spkg keygen -o keys/author').code).toBe(0)
  const pack = shell(cwd, bin, 'spkg pack lighthouse --minify -o lighthouse.spkg')
  expect(pack.code).toBe(0)
  expect(pack.stdout + pack.stderr).toContain('wrote lighthouse.spkg')
  const sign = shell(cwd, bin, 'spkg sign lighthouse.spkg --key keys/author.sec')
  expect(sign.code).toBe(0)
  const entries = Object.keys(unzipSync(readFileSync(join(cwd, 'lighthouse.spkg'))))
  expect(entries).toEqual(expect.arrayContaining(['META-PKG/names.json', 'META-PKG/signature.sig']))
  const manifest = JSON.parse(
    new TextDecoder().decode(unzipSync(readFileSync(join(cwd, 'lighthouse.spkg')))['manifest.json']),
  )
  expect(manifest.build).toMatchObject({ minified: true, names_map: 'META-PKG/names.json' })
  expect(shell(cwd, bin, 'spkg keygen --encryption -o keys/lighthouse.key').code).toBe(0)
  const encrypt = shell(
    cwd,
    bin,
    'spkg encrypt lighthouse.spkg --key keys/lighthouse.key -o lighthouse.spkg.enc',
  )
  expect(encrypt.code).toBe(0)
  expect(readFileSync(join(cwd, 'lighthouse.spkg.enc')).includes(Buffer.from('lighthouse stair'))).toBe(false)

  // 5. The CI step: action.yml's own shell step, with the inputs GitHub would pass.
  const step = actionStep()
  const inputs = {
    SPKG_PATH: 'lighthouse.spkg.enc',
    SPKG_VERSION: 'latest',
    SPKG_ARGS: '--decryption-key keys/lighthouse.key --trusted-key keys/author.pub',
  }
  transcript.push(
    `# action.yml's step (${ACTION_REF}) with the workflow's inputs: ${Object.entries(inputs)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' ')}`,
  )
  const ci = shell(cwd, bin, step, inputs)
  expect(ci.code).toBe(0)
  expect(ci.stderr).toBe('')
  expect(ci.stdout).toMatch(
    /^spkg validate lighthouse\.spkg\.enc: valid: 0 fatal, 0 errors, 0 warnings, \d+ info\n$/m,
  )
  expect(ci.stdout).not.toMatch(/^::(error|warning)/m)

  // 6. Played to the new scene.
  const play = shell(
    cwd,
    bin,
    'spkg play lighthouse.spkg.enc --decryption-key keys/lighthouse.key --choose ">story/0002-end.sty:tower"',
  )
  expect(play.code).toBe(0)
  expect(play.stdout).toContain('The story begins. Or take the lighthouse stair.')
  expect(play.stdout).toContain('You climb to the lamp and light it.')
  expect(play.stdout.trimEnd().endsWith('-- end')).toBe(true)

  const out = process.env.SPKG_WALKTHROUGH
  if (out) writeFileSync(out, `${transcript.join('\n').trimEnd()}\n`)
}, 600_000)
