/**
 * The typed syntax tree of `.sty` parts and `.xty` modules (STORY-LANGUAGE.md sections 1-8).
 * Positions are 1-based lines and code-point columns.
 */

/** What an explicit or implicit id names in a part: the targets of jumps, gates and links. */
export type IdKind = 'heading' | 'anchor' | 'group' | 'option'

/** A source position. */
export interface Pos {
  line: number
  column: number
}

/** An expression (section 6). */
export type Expr =
  | { k: 'num'; v: number; pos: Pos }
  | { k: 'str'; v: string; pos: Pos }
  | { k: 'bool'; v: boolean; pos: Pos }
  | { k: 'dice'; n: number; m: number; pos: Pos }
  | { k: 'ref'; id: string; pos: Pos }
  | { k: 'name'; name: string; pos: Pos }
  | { k: 'list'; items: Expr[]; pos: Pos }
  | { k: 'un'; op: '-' | 'not'; e: Expr; pos: Pos }
  | { k: 'bin'; op: BinOp; a: Expr; b: Expr; pos: Pos }
  | { k: 'call'; callee: string; args: Expr[]; pos: Pos }
  | { k: 'index'; e: Expr; index: Expr; pos: Pos }
  | { k: 'field'; e: Expr; name: string; pos: Pos }
  /**
   * 1.1: a part target `path[:id]` as the argument of `visits()` or `turns()` (`visits(b.sty:hall)`),
   * written as a gate's; `pos` is its first character.
   */
  | { k: 'target'; target: string; pos: Pos }

/** A binary operator. */
export type BinOp = 'or' | 'and' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%'

/**
 * 1.1: the kind of an alternative (section 2 of the 1.1 design): `seq` stops at its last item,
 * `cycle` starts over, `once` shows nothing after its last, `shuffle` shows each item once per
 * round in an order drawn from the story's generator.
 */
export type AltMode = 'seq' | 'cycle' | 'once' | 'shuffle'

/** Inline content of a paragraph, heading, option label or passage line. */
export type Inline =
  | { k: 'text'; v: string }
  | { k: 'delim'; n: 1 | 2 }
  | { k: 'break' }
  | { k: 'interp'; e: Expr }
  | { k: 'if'; branches: Array<{ cond: Expr; body: Inline[] }>; otherwise: Inline[] }
  | { k: 'set'; stmt: SetStmt }
  | { k: 'link'; body: Inline[]; target: string; pos: Pos; targetPos: Pos }
  /**
   * 1.1: an inline alternative `{seq a|b|c}`; `id` is its implicit id `<section>~<k>` (in a passage
   * `<passage>~<k>`), filled after parsing; `pos` is its `{`.
   */
  | { k: 'alt'; mode: AltMode; items: Inline[][]; id: string; pos: Pos }

/** `{set n = e}`, `{set n += e}`, `{set n -= e}`. */
export interface SetStmt {
  name: string
  op: '=' | '+=' | '-='
  e: Expr
  /** The command's `{`. */
  pos: Pos
  /** The name assigned. */
  namePos: Pos
}

/** One option of a choice group. */
export interface OptionNode {
  kind: 'option'
  pos: Pos
  sticky: boolean
  /** Explicit id, or the 1-based position as a string. */
  id: string
  explicitId: boolean
  guard?: Expr
  /** The text the menu shows (in 1.1 choice text `* Hello[.] there`: `Hello.`). */
  label: Inline[]
  /**
   * 1.1 choice text only (absent otherwise): what the story shows once the option is chosen,
   * before its body: the first `keep` nodes of `label` (the text before the brackets), then
   * `after` (the text after them). `* Hello[.] there` has `{ keep: 1, after: [' there'] }`.
   */
  echo?: { keep: number; after: Inline[] }
  /** True when the label is empty: a fallback. */
  fallback: boolean
  /**
   * 1.1 only: the option is inside a block `{if}` among the group's options: `if` indexes the
   * group's `ifs`, `branch` the condition whose branch holds it (`-1`: the `{else}` branch).
   */
  under?: { if: number; branch: number }
  jump?: JumpNode
  tags: string[]
  body: Node[]
}

/**
 * A 1.1 block `{if}`…`{elif}`…`{else}`…`{end}` at the indentation of a group's options, holding
 * options of the group (`OptionNode.under` points here). `conds` are the `{if}` and `{elif}`
 * conditions; `at` is the number of the group's options before the `{if}` line (its conditions
 * are evaluated, once per arrival, just before option `at`'s guard); `parent` is the branch of
 * the `{if}` it is nested in.
 */
export interface GroupIf {
  pos: Pos
  conds: Expr[]
  at: number
  parent?: { if: number; branch: number }
}

/** A jump `-> #id`, `-> END` or (1.1) `-> DONE`. */
export interface JumpNode {
  kind: 'jump'
  pos: Pos
  /** `null` for `-> END` and `-> DONE`. */
  target: string | null
  /**
   * 1.1: `-> DONE` (`target` is null): this flow stops here and pauses on the options threads
   * gathered and on the live links, as the end of a part does; with none of them the story ends.
   * In a thread, the thread ends there and offers nothing.
   */
  done?: true
}

/**
 * A tunnel call `-> #id ->` (1.1): `target` is the id (same file) or, when `part` is set, the part
 * target `part.sty[:id]` as written. `pos` is the line's `->`, `targetPos` the `#` or the path.
 */
export interface TunnelNode {
  kind: 'tunnel'
  pos: Pos
  target: string
  targetPos: Pos
  part: boolean
}

/**
 * `->->` (1.1): returns from the innermost tunnel; with a `target`, then goes there (an id of this
 * file, or when `part` is set a part target as a gate names it).
 */
export interface TunnelReturnNode {
  kind: 'tunnel-return'
  pos: Pos
  target?: string
  targetPos?: Pos
  part?: boolean
}

/** A thread `<- #id` (1.1): the section's text, and its first group's options join the next pause. */
export interface ThreadNode {
  kind: 'thread'
  pos: Pos
  target: string
  targetPos: Pos
}

/** A node of a part body. */
export type Node =
  | TunnelNode
  | TunnelReturnNode
  | ThreadNode
  | {
      kind: 'paragraph'
      pos: Pos
      lines: Inline[][]
      tags: string[]
      /**
       * 1.1 only (absent otherwise): how the paragraph joins the text around it at play time.
       * `start`: its first line starts with `<>` (`tight`: no space after the glue, `space`: one);
       * `end`: its last line ends with `<>` (`tight`, `space`: a space before it) or with a jump
       * (`jump`: the next text continues the paragraph after one space).
       */
      glue?: { start?: GlueSide; end?: GlueSide | 'jump' }
    }
  | {
      kind: 'heading'
      pos: Pos
      level: number
      id: string
      explicitId: boolean
      label: Inline[]
      tags: string[]
      silent: boolean
    }
  | { kind: 'anchor'; pos: Pos; id: string }
  | JumpNode
  | { kind: 'gate'; pos: Pos; target: string; targetPos: Pos }
  | {
      kind: 'media'
      pos: Pos
      path: string
      /** The first character of the path. */
      pathPos: Pos
      alt: string
      media: MediaKind
      tags: string[]
    }
  | {
      kind: 'group'
      pos: Pos
      /** The anchor's id when `explicitId`, else the implicit `<section>@<k>` (`search@1`, `h0@2`). */
      id: string
      explicitId: boolean
      /** Every option of the group in source order, also those inside a 1.1 block `{if}`. */
      options: OptionNode[]
      /** 1.1 only: the block `{if}`s among the options, in source order (see {@link GroupIf}). */
      ifs?: GroupIf[]
    }
  | { kind: 'set'; pos: Pos; stmt: SetStmt }
  | { kind: 'local'; pos: Pos; name: string; namePos: Pos; e: Expr }
  | { kind: 'if'; pos: Pos; branches: Array<{ cond: Expr; body: Node[] }>; otherwise: Node[] }
  | { kind: 'insert'; pos: Pos; name: string; namePos: Pos; args: Expr[] }
  | { kind: 'call'; pos: Pos; ns: string; fn: string; namePos: Pos; args: Expr[] }
  | { kind: 'tags'; pos: Pos; tags: string[] }
  /** 1.1: a block alternative `{seq}` … `{or}` … `{end}` (see the inline `alt`). */
  | { kind: 'alt'; pos: Pos; mode: AltMode; id: string; branches: Node[][] }
  /** 1.1: `{temp n = e}`, a variable for one function call, one passage insert or one visit of a section. */
  | { kind: 'temp'; pos: Pos; name: string; namePos: Pos; e: Expr }
  /** 1.1: `{return e}` (or `{return}`) in a block function. */
  | { kind: 'return'; pos: Pos; e?: Expr }

/** The side of a 1.1 glue `<>`: written with no space next to it (`tight`) or with one (`space`). */
export type GlueSide = 'tight' | 'space'

/** 1.1: `{items Tools = rope, lamp, key}`, a set declaration; the declared order is the items' order. */
export interface ItemsDecl {
  name: string
  /** The items in declared order; `text` is what one prints when it is not its name (`lamp "oil lamp"`). */
  items: Array<{ name: string; pos: Pos; text?: string }>
  /** The command's `{`. */
  pos: Pos
  namePos: Pos
}

/** 1.1: a block function `{fn f(a, ref b)}` … `{end}` of a module. */
export interface BlockFn {
  name: string
  params: string[]
  /** `refs[i]` is true when parameter `i` is written `ref name`: it assigns the caller's variable. */
  refs: boolean[]
  /** `{temp}`, `{set}`, `{if}` and `{return}` lines. */
  body: Node[]
  pos: Pos
  namePos: Pos
}

/** The kind of a media block, from its extension. */
export type MediaKind = 'image' | 'audio' | 'video'

/** A `{use}`: `pos` is its `{`, `namePos` the module name. */
export interface ModuleUse {
  module: string
  pos: Pos
  namePos: Pos
}

/** The declaration block of a part (section 4). */
export interface DeclarationBlock {
  tags: string[]
  uses: ModuleUse[]
  seed?: { value: number; pos: Pos }
  defaults: SetStmt[]
  /** 1.1 only (absent otherwise): `{const N = e}`, constants visible in this part, as a module's. */
  consts?: ConstDecl[]
  /** 1.1: the part's set declarations (absent when there are none). */
  items?: ItemsDecl[]
}

/** A `{const N = e}` declaration (of a module, or at 1.1 of a part). */
export interface ConstDecl {
  name: string
  e: Expr
  pos: Pos
  namePos: Pos
}

/** A parsed part (`.sty`). */
export interface PartAst {
  kind: 'part'
  file: string
  declarations: DeclarationBlock
  body: Node[]
}

/** A parsed module (`.xty`). */
export interface ModuleAst {
  kind: 'module'
  file: string
  uses: ModuleUse[]
  defaults: SetStmt[]
  consts: ConstDecl[]
  fns: Array<{ name: string; params: string[]; e: Expr; pos: Pos; namePos: Pos }>
  passages: Array<{ name: string; params: string[]; body: Node[]; pos: Pos; namePos: Pos }>
  /** `namePos` is the first character of `ns.fn`. */
  externs: Array<{ ns: string; fn: string; params: string[]; pos: Pos; namePos: Pos }>
  /** 1.1: block functions (absent when there are none). */
  blockFns?: BlockFn[]
  /** 1.1: set declarations (absent when there are none). */
  items?: ItemsDecl[]
}
