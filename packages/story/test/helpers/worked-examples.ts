/**
 * What the worked examples of STORY-LANGUAGE.md section 11 must give, shared by the parser's and
 * the interpreter's tests. Tests only.
 */

/** E8's diagnostics (section 11), as `path:line:column severity code`, in order. */
export const E8_DIAGNOSTICS: readonly string[] = [
  'bad.sty:1:1 error story/unclosed-brace',
  'bad.sty:3:13 error story/bad-expression',
  'bad.sty:4:4 error story/unknown-id',
  'bad.sty:5:1 warning story/unreachable',
  'bad.sty:5:4 error story/bad-target',
  'bad.sty:6:10 error story/duplicate-id',
  'bad.sty:7:1 error story/unclosed-interpolation',
]
