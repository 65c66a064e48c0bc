/**
 * Line kinds (section 1): after stripping indentation, the first rule that matches wins. Internal.
 */
import type { LineKind } from './line-parser.ts'
import { findClose, type Line } from './scan.ts'

const COMMAND_WORD = /^\{\s*(if|elif|else|end|set|local|use|seed|insert|call|const|fn|passage|extern)\b/
/** The command words of 1.1 (`{items}`, `{temp}`, `{return}`): an unclosed one is reported only at 1.1. */
const COMMAND_WORD_11 = /^\{\s*(items|temp|return)\b/

/**
 * Classifies a line. `unclosed` is a command line whose brace is not closed on the line. At 1.1
 * (`v11`), `->->` lines are `tunnel-return`, a jump line ending in `->` is `tunnel`, and a line
 * starting `<-` is `thread`; at 1.0 they read as before (a bad jump, and text).
 */
export function classify(line: Line, v11 = false): LineKind {
  const t = line.text
  if (t === '') return 'blank'
  if (t.startsWith('//')) return 'comment'
  if (/^#{1,6}(?: |$)/.test(t)) return 'heading'
  if (t.startsWith('[[') && t.endsWith(']]')) return 'gate'
  if (/^\[#[^\]\s]*\]$/.test(t)) return 'anchor'
  if (t.startsWith('->')) {
    if (v11) {
      if (t.startsWith('->->')) return 'tunnel-return'
      if (t.length > 4 && t.endsWith('->')) return 'tunnel'
    }
    return 'jump'
  }
  if (v11 && t.startsWith('<-')) return 'thread'
  if (/^[*+](?: |$)/.test(t)) return 'option'
  if (/^!\[[^\]]*\]\([^)]*\)/.test(t)) return 'media'
  if (t.startsWith('{')) {
    const close = findClose(t, 0)
    if (close === t.length - 1) return 'command'
    if (close < 0 && (COMMAND_WORD.test(t) || (v11 && COMMAND_WORD_11.test(t)))) return 'unclosed'
  }
  if (/^#\S/.test(t)) return 'tags'
  return 'text'
}
