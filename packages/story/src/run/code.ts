/**
 * What compiled code is made of: the instructions the machine runs, compiled options and compiled
 * inline content. A leaf (no import from the package at run time), shared by the compiler, the
 * machine and the decisions.
 */
import type { Pos } from '../ast.ts'
import type { PauseOption, TextRun } from './types.ts'
import type { Ev, PassageDef, Vm } from './vm.ts'

/** A compiled inline piece. */
export type Piece =
  | string
  | { k: 'delim'; n: 1 | 2 }
  | { k: 'break' }
  | { k: 'interp'; e: Ev }
  | { k: 'if'; conds: Ev[]; bodies: Piece[][]; otherwise: Piece[] }
  | { k: 'set'; run: (m: Vm) => void }
  | { k: 'link'; body: Piece[]; target: string }

/** Compiled inline content; `constant` is set when it renders the same every time. */
export interface CompiledInline {
  pieces: Piece[]
  constant?: Rendered
  /** No style delimiters and no links anywhere: rendered as one run by string concatenation. */
  plain: boolean
}

/** Rendered inline content. */
export interface Rendered {
  text: string
  runs: TextRun[]
  links: Array<{ target: string; text: string }>
}

/** A compiled option. */
export interface COption {
  id: string
  sticky: boolean
  fallback: boolean
  guard: Ev | undefined
  label: CompiledInline
  tags: string[]
  /** Address of the option body. */
  body: number
  /**
   * The option as a pause offers it, built once when its label is constant: every pause that
   * offers the option shares this object (events are read-only), so neither play nor a resume's
   * replay allocates it again.
   */
  shown: PauseOption | undefined
}

/** Opcodes: small integers, so the machine's switch compiles to a jump table. */
export const OP_PARA = 0
export const OP_HEAD = 1
export const OP_MEDIA = 2
export const OP_EXEC = 3
export const OP_JF = 4
export const OP_GOTO = 5
export const OP_END = 6
export const OP_GATE = 7
export const OP_GROUP = 8
export const OP_INSERT = 9
export const OP_CALL = 10
export const OP_EOF = 11
export const OP_RET = 12
export const OP_BADJUMP = 13

/** One instruction. */
export type Instr =
  | { op: typeof OP_PARA; inline: CompiledInline; tags: string[] }
  | {
      op: typeof OP_HEAD
      level: number
      id: string
      inline: CompiledInline
      tags: string[]
      silent: boolean
      key: string
    }
  | {
      op: typeof OP_MEDIA
      path: string
      alt: string
      media: 'image' | 'audio' | 'video'
      tags: string[]
      pos: Pos
    }
  | { op: typeof OP_EXEC; run: (m: Vm) => void }
  | { op: typeof OP_JF; cond: Ev; to: number }
  | { op: typeof OP_GOTO; to: number }
  | { op: typeof OP_END }
  | { op: typeof OP_GATE; target: string }
  | { op: typeof OP_GROUP; key: string; options: COption[]; after: number }
  | {
      op: typeof OP_INSERT
      name: string
      def: PassageDef | undefined
      args: Ev[]
      visitsKey: string | undefined
      inPart: boolean
      file: string
      pos: Pos
    }
  | { op: typeof OP_CALL; ns: string; fn: string; args: Ev[]; file: string; pos: Pos }
  | { op: typeof OP_EOF }
  | { op: typeof OP_RET }
  | { op: typeof OP_BADJUMP; id: string; file: string; pos: Pos }
