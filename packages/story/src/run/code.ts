/**
 * What compiled code is made of: the instructions the machine runs, compiled options and compiled
 * inline content. A leaf (no import from the package at run time), shared by the compiler, the
 * machine and the decisions.
 */
import type { AltMode, Pos } from '../ast.ts'
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
  /** 1.1: an inline alternative; {@link altIndex} in alts.ts picks the item shown. */
  | { k: 'alt'; alt: AltSpec; items: Piece[][] }

/**
 * 1.1: a compiled alternative (`{seq}`, `{cycle}`, `{once}`, `{shuffle}`): its kind, its number
 * of items or branches, and its state keys (`<file>:<section>~<k>@seq`, and `…@bag` for a shuffle).
 */
export interface AltSpec {
  mode: AltMode
  n: number
  seqKey: string
  bagKey: string
}

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
  /** 1.1: the index of the group's block `{if}` ({@link CGroupIf}) that holds the option, if any. */
  under?: number
  /** With `under`: the branch that holds it (its condition's index; -1 for `{else}`). */
  branch?: number
  /** 1.1, an explicit id: its `<file>:<id>@turn` key, set to the turn it was chosen on (`turns(#id)`). */
  turnKey: string | undefined
  /**
   * The option as a pause offers it, built once when its label is constant: every pause that
   * offers the option shares this object (events are read-only), so neither play nor a resume's
   * replay allocates it again.
   */
  shown: PauseOption | undefined
}

/**
 * Opcodes: small integers, so the machine's switch compiles to a jump table. The one list the
 * compiler and the machine both read (`Op.PARA`, ...).
 */
export const Op = {
  PARA: 0,
  HEAD: 1,
  MEDIA: 2,
  EXEC: 3,
  JF: 4,
  GOTO: 5,
  END: 6,
  GATE: 7,
  GROUP: 8,
  INSERT: 9,
  CALL: 10,
  EOF: 11,
  RET: 12,
  BADJUMP: 13,
  ALT: 14,
  MARK: 15,
  TUNNEL: 16,
  TRET: 17,
  THREAD: 18,
  DONE: 19,
} as const

/** The glue sides of a 1.1 paragraph (`Instr` PARA `start`/`end`): none, `<>` with no space, with a space, a jump. */
export const GLUE = { none: 0, tight: 1, space: 2, jump: 3 } as const

/** A 1.1 block `{if}` among a group's options (see `GroupIf` in the syntax tree). */
export interface CGroupIf {
  conds: Ev[]
  /** Evaluated just before the guard of option `at`. */
  at: number
  /** The `{if}` it is nested in (-1: none) and the branch of it that holds it. */
  parent: number
  parentBranch: number
}

/** One instruction. */
export type Instr =
  | {
      op: typeof Op.PARA
      inline: CompiledInline
      tags: string[]
      /**
       * 1.1 only: the paragraph is held until the next text shows whether it continues (glue, a
       * mid-line jump); `start` and `end` are its glue ({@link GLUE}), 0 when none.
       */
      hold?: true
      start?: number
      end?: number
    }
  | {
      op: typeof Op.HEAD
      level: number
      id: string
      inline: CompiledInline
      tags: string[]
      silent: boolean
      key: string
      /** 1.1: the `<file>:<id>@turn` key (`turns(#id)`); undefined at 1.0. */
      turnKey: string | undefined
    }
  | {
      op: typeof Op.MEDIA
      path: string
      alt: string
      media: 'image' | 'audio' | 'video'
      tags: string[]
      pos: Pos
    }
  | { op: typeof Op.EXEC; run: (m: Vm) => void }
  | { op: typeof Op.JF; cond: Ev; to: number }
  | { op: typeof Op.GOTO; to: number }
  | { op: typeof Op.END }
  | { op: typeof Op.DONE }
  | { op: typeof Op.GATE; target: string }
  | {
      op: typeof Op.GROUP
      key: string
      id: string
      options: COption[]
      after: number
      ifs?: CGroupIf[]
      /** 1.1, a named group: its arrival count and turn keys; undefined otherwise. */
      visitsKey?: string
      turnKey?: string
    }
  | {
      op: typeof Op.INSERT
      name: string
      def: PassageDef | undefined
      args: Ev[]
      visitsKey: string | undefined
      inPart: boolean
      file: string
      pos: Pos
    }
  | { op: typeof Op.CALL; ns: string; fn: string; args: Ev[]; file: string; pos: Pos }
  | { op: typeof Op.EOF }
  | { op: typeof Op.RET }
  | { op: typeof Op.BADJUMP; id: string; file: string; pos: Pos }
  /** 1.1: a block alternative: the branch addresses, and where the block ends. */
  | { op: typeof Op.ALT; alt: AltSpec; to: number[]; after: number }
  /** 1.1: an anchor reached: its visit count and turn (`visits(#anchor)`, `turns(#anchor)`). */
  | { op: typeof Op.MARK; visitsKey: string; turnKey: string }
  /**
   * A tunnel call (1.1): to `to` in this part, or into the part `target` (`path[:id]`). `id` is the
   * call's id in the reading state, `<file>:<section>-><k>`.
   */
  | { op: typeof Op.TUNNEL; id: string; to: number; target: string | undefined }
  /** `->->` (1.1): return; then jump to `to` (this part) or go to `target` (a part), when set. */
  | { op: typeof Op.TRET; to: number; target: string | undefined; file: string; pos: Pos }
  /** `<- #id` (1.1): runs the code at `to` as a thread, up to its first group. */
  | { op: typeof Op.THREAD; to: number }

/** An open tunnel (1.1): where `->->` returns to. A call is always in part code. */
export interface TunnelFrame {
  /** The call's id, `<file>:<section>-><k>` (the reading state's `tunnels`). */
  id: string
  /** The caller's part: its path, code and part tags. */
  file: string
  code: Instr[]
  tags: string[]
  /** The instruction after the call. */
  pc: number
}

/** The options a thread (1.1) gathered for the next pause: its first group's, filtered at arrival. */
export interface ThreadGather {
  /** The group's decision key (`file:group`) and its id in the file. */
  key: string
  gid: string
  options: COption[]
  /** Their labels, rendered when the thread ran. */
  texts: string[]
  /** The open tunnels where the thread started: a thread's option goes on with them (ink forks the call stack). */
  tunnels: TunnelFrame[]
}
