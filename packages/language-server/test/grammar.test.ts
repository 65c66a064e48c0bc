/**
 * The TextMate grammar of editors/vscode against its fixture files, with vscode-tmgrammar-test
 * (vscode-textmate and the vscode-oniguruma wasm, all local: no network). Each fixture line is
 * followed by assertions of the scopes its tokens get.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const editor = fileURLToPath(new URL('../../../editors/vscode', import.meta.url))
const tool = fileURLToPath(new URL('../node_modules/.bin/vscode-tmgrammar-test', import.meta.url))

function grammarTest(...fixtures: string[]) {
  const r = spawnSync(tool, ['--config', join(editor, 'package.json'), ...fixtures], {
    cwd: editor,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: r.status, output: `${r.stdout}${r.stderr}` }
}

describe('TextMate grammar (editors/vscode/syntaxes/spkg.tmLanguage.json)', () => {
  it('gives every construct of a part and a module its scopes', () => {
    const r = grammarTest('test-fixtures/part.sty', 'test-fixtures/module.xty')
    expect(r.output).toContain('test-fixtures/part.sty run successfuly')
    expect(r.output).toContain('test-fixtures/module.xty run successfuly')
    expect(r.status).toBe(0)
  })

  it('gives the 1.1 glue, mid-line jumps and choice text their scopes', () => {
    const r = grammarTest('test-fixtures/part-1.1.sty')
    expect(r.output).toContain('test-fixtures/part-1.1.sty run successfuly')
    expect(r.status).toBe(0)
  })

  it('gives the 1.1 alternatives their scopes, and turns() its builtin scope', () => {
    const r = grammarTest('test-fixtures/alternatives.sty')
    expect(r.output).toContain('test-fixtures/alternatives.sty run successfuly')
    expect(r.status).toBe(0)
  })

  it('gives part targets of visits() and turns(), a part’s sets and temps, block alternatives and options under {if} their scopes', () => {
    const r = grammarTest('test-fixtures/counts-sets.sty')
    expect(r.output).toContain('test-fixtures/counts-sets.sty run successfuly')
    expect(r.status).toBe(0)
  })

  it('fails a fixture whose assertion the grammar does not meet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-grammar-'))
    const file = join(dir, 'wrong.sty')
    writeFileSync(file, '// SYNTAX TEST "source.spkg"\n# Heading\n// <- comment.line.double-slash.spkg\n')
    const r = grammarTest(file)
    expect(r.status).not.toBe(0)
    expect(r.output).toContain('missing required scopes: comment.line.double-slash.spkg')
  })

  it('is the grammar the extension contributes for .sty and .xty', () => {
    const pkg = JSON.parse(readFileSync(join(editor, 'package.json'), 'utf8'))
    expect(pkg.contributes.languages[0].extensions).toEqual(['.sty', '.xty'])
    const grammar = JSON.parse(readFileSync(join(editor, pkg.contributes.grammars[0].path), 'utf8'))
    expect(grammar.scopeName).toBe(pkg.contributes.grammars[0].scopeName)
  })
})
