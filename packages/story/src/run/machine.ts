/**
 * The story machine: runs compiled parts instruction by instruction, queues events and enters
 * parts lazily; at a choice group or the end of a part with live links it hands over to
 * decisions.ts (pauses, answers, the reading state), and parts come compiled from parts.ts.
 * `createStoryRun` and `resumeStoryRun` wrap it. Internal; a deliberate hot loop, kept in one place.
 */
import {
  createDiagnostic,
  type Diagnostic,
  type DiagnosticCode,
  isVariableName,
  type ReadingState,
  type StorySourceLike,
} from '@spkg/manifest'
import type { Pos } from '../ast.ts'
import { storyLangOf } from '../lang.ts'
import { translateDiagnosticNames } from '../minify/event-names.ts'
import { translateStateNames } from '../minify/state-names.ts'
import { altIndex } from './alts.ts'
import { type COption, GLUE, type Instr, Op, type ThreadGather, type TunnelFrame } from './code.ts'
import {
  arrive,
  choose,
  type DecisionState,
  endOfPartPause,
  gatherThread,
  restoreDecisions,
  saveState,
} from './decisions.ts'
import { callHost, countOf } from './expr.ts'
import { compilePart, type Part } from './parts.ts'
import { render, renderPlain } from './render.ts'
import { createRng, type Rng, randomSeed } from './rng.ts'
import type { SetDecl } from './sets.ts'
import type {
  Block,
  BlockEvent,
  HostFunctions,
  PauseEvent,
  PauseLink,
  StoryAnswer,
  StoryEvent,
  StoryRun,
  StoryRunOptions,
  TextRun,
  Value,
} from './types.ts'
import { fromJson, truthy } from './values.ts'
import type { ReplayHooks } from './vm.ts'

/** Steps without a block, pause or part entry before the machine gives up on an endless loop. */
const STEP_LIMIT = 100_000

/**
 * Blocks without a pause before the machine gives up on a loop that shows text forever. Half of
 * {@link REPLAY_BLOCKS}, so a state saved live always replays; no example or bench story comes
 * near it (README, "Decisions of the interpreter").
 */
const BLOCK_LIMIT = 10_000

/**
 * While replaying, more blocks than this between two decisions mean the story loops where the saved
 * reading did not (no reader reads that far without choosing): the replay counts as diverged.
 */
const REPLAY_BLOCKS = 20_000

/**
 * Events a drained queue keeps taking before it is replaced by a fresh array (see `next`): about
 * the room a new array gets at its first push, and few pulled events kept alive.
 */
const QUEUE_REUSE = 16

/** A 1.1 paragraph held open (see `holdPara`): its text so far and how it ends. */
interface Held {
  text: string
  runs: TextRun[]
  tags: string[]
  /** Its glue at the end ({@link GLUE}). */
  end: number
  /** True once `runs` is a copy this paragraph may change (rendered runs may be shared constants). */
  own: boolean
}

/** Appends rendered text and runs to a held paragraph, with one space between when `space`. */
function joinHeld(h: Held, text: string, runs: TextRun[], space: boolean): void {
  if (!h.own) {
    h.runs = h.runs.map((r) => ({ ...r }))
    h.own = true
  }
  h.text += space ? ` ${text}` : text
  let last = h.runs[h.runs.length - 1]
  if (space && last) {
    // the space between is plain text, as between two styled words of one paragraph
    if (last.strong || last.em || last.link !== undefined) {
      last = { text: ' ' }
      h.runs.push(last)
    } else last.text += ' '
  }
  let i = 0
  const r = runs[0]
  if (last && r && !!r.strong === !!last.strong && !!r.em === !!last.em && r.link === last.link) {
    last.text += r.text
    i = 1
  }
  for (; i < runs.length; i++) h.runs.push({ ...runs[i]! })
}

/** The interpreter. Implements {@link StoryRun}. */
export class Machine implements StoryRun, DecisionState {
  vars = new Map<string, Value>()
  rng: Rng
  frame: Value[] = []
  temps = new Map<string, Value>()
  setDecls = new Map<string, SetDecl>()
  /** The story is read at 1.1: its saved maps are escaped (see `toJson`). */
  readonly v11: boolean
  depth = 0
  curFile = ''
  visitsKey: string | undefined
  host: HostFunctions
  replaying = false
  /** 1.1: answered pauses so far (`turns()`); rebuilt by replay on resume. */
  turns = 0
  choices = new Map<string, string[]>()
  /** The chosen ids of decision keys with long records (see `arrive`); short records are searched. */
  readonly used = new Map<string, Set<string>>()
  visited = new Set<string>()
  visitedList: string[] = []
  /** Every part entry in order; the last is the current part. */
  entered: string[] = []
  lastIndex = -1
  ended = false
  pause: PauseEvent | undefined
  replay: ReplayHooks | undefined
  /** During replay: more queued events than this count as a divergence. */
  maxEvents = Infinity
  queue: StoryEvent[] = []
  /** While resuming: every replayed block event, in order (the scroll-back), so resume need not scan the queue. */
  replayed: BlockEvent[] | undefined
  /** The length of `replayed` at the latest part entry: blocks from there on belong to the current part. */
  replayedEntry = 0
  qh = 0
  private nextIndex = 0
  /** Blocks since the last decision or part entry while replaying. */
  sinceDecision = 0
  /** Steps since the last block, pause or part entry: a loop that makes none is endless. */
  idle = 0
  /** Blocks since the last pause: a loop that shows text and never pauses is endless. */
  sincePause = 0
  links: PauseLink[] = []
  pauseOptions: COption[] = []
  pauseThreads: Array<ThreadGather | undefined> = []
  /** The open tunnels (1.1), outermost first. */
  tunnels: TunnelFrame[] = []
  /**
   * Threads (1.1) running up to their first group: where each returns, and the flow's tunnels it
   * left (a thread runs on a copy of them, as ink forks the call stack).
   */
  private threadRet: number[] = []
  /** Where each running thread started. */
  private threadTo: number[] = []
  private threadTunnels: TunnelFrame[][] = []
  /** Options threads gathered for the next pause. */
  threadOpts: ThreadGather[] = []
  /** Per part: how many of its entries in `entered` are returns from a tunnel (not counted by `visits()`). */
  private returns: Map<string, number> | undefined
  /** Scratch list of the options a group offers at an arrival (copied only when the pause stays open). */
  readonly offered: COption[] = []
  private code: Instr[] = []
  pc = 0
  private calls: Array<{ code: Instr[]; pc: number; frame: Value[]; visitsKey: string | undefined }> = []
  /** The current part's compiled code and path (for {@link progress}). */
  private partCode: Instr[] | undefined
  private partLines: number[] = []
  private partPath: string | undefined
  private partTags: string[] = []
  pending: { target: string; initial: boolean } | undefined
  private readonly parts = new Map<string, Part | null>()
  private readonly seedOption: number | undefined
  /** 1.1: the paragraph being built, emitted when a paragraph after it does not continue it or something closes it. */
  held: Held | undefined

  constructor(
    readonly source: StorySourceLike,
    options: StoryRunOptions = {},
  ) {
    this.host = options.host ?? {}
    this.seedOption = options.seed
    this.rng = createRng(options.seed ?? 0)
    const session = options.session ?? source.session ?? {}
    for (const key of Object.keys(session)) {
      const v = fromJson(session[key])
      if (v === undefined || !isVariableName(key)) {
        this.emitDiagnostic(
          createDiagnostic(
            'story/session-name',
            v === undefined
              ? `session value "${key}" is null and is ignored`
              : `session key "${key}" is not a story variable name and is ignored`,
            { path: 'session.json', field: `/${key}` },
          ),
        )
        continue
      }
      this.vars.set(key, v)
    }
    const entry = source.parts[0]
    const lang = storyLangOf(source.lang)
    this.v11 = 'lang' in lang && lang.lang !== '1.0'
    if ('error' in lang) {
      // A story in a language this engine does not read is refused, not played half-understood.
      this.emitDiagnostic(
        createDiagnostic('story/lang-version', lang.error, { path: 'manifest.json', field: '/story_lang' }),
      )
      this.finish()
    } else if (entry === undefined) {
      this.emitDiagnostic(createDiagnostic('story/load-failed', 'the story has no parts'))
      this.finish()
    } else this.pending = { target: entry, initial: true }
  }

  // ---- StoryRun ----

  next(): Promise<StoryEvent | undefined> {
    // Fast path: no part to load, so no await; one settled promise per event.
    for (;;) {
      if (this.qh < this.queue.length) {
        const e = this.queue[this.qh++]!
        // A drained queue is replaced only once it is long: pulling one event at a time then
        // appends to the same array instead of allocating one per event.
        if (this.qh === this.queue.length && this.qh >= QUEUE_REUSE) {
          this.queue = []
          this.qh = 0
        }
        return Promise.resolve(e)
      }
      if (this.ended) return Promise.resolve(undefined)
      if (this.pause) return Promise.resolve(this.pause)
      if (this.pending) return this.load().then(() => this.next())
      try {
        this.run(true)
      } catch (cause) {
        return Promise.reject(cause)
      }
    }
  }

  /** Runs until a pause, the end or a replay stop, without taking events off the queue. */
  async advance(): Promise<void> {
    for (;;) {
      if (this.ended || this.pause || this.replay?.diverged || this.replay?.stopped) return
      if (this.pending) await this.load()
      else this.run(false)
    }
  }

  choose(answer: StoryAnswer): void {
    choose(this, answer)
  }

  saveState(): ReadingState {
    const names = this.source.names
    return names ? translateStateNames(saveState(this), names, 'original') : saveState(this)
  }

  // ---- Vm ----

  partEntries(file: string): number {
    let n = 0
    for (const p of this.entered) if (p === file) n++
    return n - (this.returns?.get(file) ?? 0)
  }

  chosenCount(file: string, id: string): number {
    const part = this.parts.get(file)
    if (part) {
      const group = part.optionGroups.get(id)
      const list = group === undefined ? undefined : this.choices.get(group)
      return list === undefined ? 0 : countOf(list, id)
    }
    // A part not compiled in this run (entered before a resume that diverged): explicit option ids
    // are unique in their file, so every decision of the file can be searched.
    let n = 0
    const prefix = `${file}:`
    for (const [key, list] of this.choices) if (key.startsWith(prefix)) n += countOf(list, id)
    return n
  }

  report(code: DiagnosticCode, message: string, file: string, pos?: Pos): void {
    this.emitDiagnostic(createDiagnostic(code, message, { path: file, line: pos?.line, column: pos?.column }))
  }

  // ---- internals ----

  emitDiagnostic(d: Diagnostic): void {
    // A minified build's diagnostics name the author's variables, functions and ids.
    const names = this.source.names
    if (names) d = translateDiagnosticNames(d, names)
    this.queue.push(
      this.replaying
        ? { type: 'diagnostic', diagnostic: d, replay: true }
        : { type: 'diagnostic', diagnostic: d },
    )
  }

  /** Restores choices and groups from a saved state (resume). */
  restoreDecisions(state: ReadingState): void {
    restoreDecisions(this, state)
  }

  /** Sets the part to (re-)enter next, as resume does after a divergence. */
  enterNext(target: string, entered: string[]): void {
    this.entered = entered
    this.pending = { target, initial: false }
  }

  private finish(): void {
    if (this.held) this.flushPara()
    if (this.tunnels.length) this.tunnels = []
    this.ended = true
    this.pause = undefined
    this.queue.push(this.replaying ? { type: 'end', replay: true } : { type: 'end' })
  }

  private async load(): Promise<void> {
    const { target, initial } = this.pending!
    this.pending = undefined
    // Entering a part (by a gate, a link, a tunnel, a return or the end of the one before) closes a
    // held 1.1 paragraph, before anything the entry reports.
    if (this.held) this.flushPara()
    const colon = target.indexOf(':')
    const path = colon < 0 ? target : target.slice(0, colon)
    const scene = colon < 0 ? undefined : target.slice(colon + 1)
    let part = this.parts.get(path)
    let fresh = false
    if (part === undefined) {
      let text: string | undefined
      try {
        text = await this.source.readPart(path)
      } catch {
        text = undefined
      }
      try {
        part = text === undefined ? null : compilePart(this.source, path, String(text))
      } catch {
        // The parser never throws by contract; this fence keeps a broken part from crashing play.
        part = null
      }
      this.parts.set(path, part)
      fresh = true
    }
    if (part === null) {
      this.emitDiagnostic(
        createDiagnostic('story/load-failed', `the part '${path}' could not be loaded`, { path }),
      )
      this.finish()
      return
    }
    this.enter(part, path, scene, initial, fresh)
  }

  private enter(part: Part, path: string, scene: string | undefined, initial: boolean, fresh: boolean): void {
    if (this.replay && !this.replay.onEnter(path)) {
      this.replay.diverged = true
      return
    }
    if (initial) {
      const seed =
        this.seedOption ??
        (part.seed !== undefined && part.seed >= 0 && part.seed <= 0xffffffff ? part.seed : randomSeed())
      this.rng = createRng(seed)
    }
    this.entered.push(path)
    this.idle = 0
    this.sinceDecision = 0
    this.curFile = path
    this.nextIndex = 0
    this.lastIndex = -1
    this.calls.length = 0
    this.visitsKey = undefined
    if (this.threadOpts.length) this.threadOpts = []
    if (this.temps.size) this.temps.clear()
    for (const d of part.sets) if (!this.setDecls.has(d.name)) this.setDecls.set(d.name, d)
    const ev: StoryEvent = { type: 'part-entered', part: path, tags: part.tags }
    if (scene !== undefined) ev.scene = scene
    if (this.replaying) ev.replay = true
    this.queue.push(ev)
    if (this.replayed) this.replayedEntry = this.replayed.length
    if (fresh) {
      for (const d of part.diagnostics) this.emitDiagnostic(d)
      if (part.seed !== undefined && path !== this.source.parts[0])
        this.report(
          'story/seed-placement',
          "'{seed}' only counts in the entry part's declaration block",
          path,
        )
    }
    for (const d of part.defaults) d(this)
    this.code = part.code
    this.pc = 0
    this.partCode = part.code
    this.partLines = part.lines
    this.partPath = path
    this.partTags = part.tags
    if (scene !== undefined) {
      const at = part.ids.get(scene)
      if (at === undefined)
        this.report('story/unknown-id', `no heading, anchor or group '#${scene}' in ${path}`, path)
      else this.pc = at
    }
  }

  /**
   * How far the run is through the current part: the share of the part's compiled code (in source
   * order) it has passed, counting the branches it jumped over; 1 at the end. Undefined before the
   * first part is entered. (Blocks rendered out of the part's blocks would count blocks of branches
   * never taken and stop short of 1 at every choice.)
   */
  get progress(): { part: string; fraction: number } | undefined {
    if (this.partCode === undefined || this.partPath === undefined) return undefined
    if (this.ended) return { part: this.partPath, fraction: 1 }
    // Inside a call, where the part's own code stands: the outermost frame in the part.
    const frame = this.code === this.partCode ? this.pc : this.calls.find((c) => c.code === this.partCode)?.pc
    const n = this.partCode.length
    return { part: this.partPath, fraction: n === 0 ? 1 : Math.min(1, (frame ?? 0) / n) }
  }

  private block(b: Block): void {
    this.idle = 0
    const index = this.nextIndex++
    this.lastIndex = index
    // Replayed blocks are built with `seen` and `replay` in their literals: adding properties later
    // would reallocate each object (resume builds tens of thousands of them).
    if (this.replaying) {
      const e: BlockEvent = { type: 'block', index, block: b, replay: true }
      this.queue.push(e)
      this.replayed?.push(e)
    } else this.queue.push({ type: 'block', index, block: b })
    if (this.replay) {
      // a replay that loops where the saved reading did not diverges (resume restarts the part)
      if (++this.sinceDecision > REPLAY_BLOCKS || this.queue.length > this.maxEvents)
        this.replay.diverged = true
    } else if (++this.sincePause > BLOCK_LIMIT)
      this.stopLoop(`the story showed ${BLOCK_LIMIT} blocks without a choice`)
  }

  /** Ends play in an endless loop, naming the line the loop was at (not on the hot path). */
  private stopLoop(what: string): void {
    const pc = this.code === this.partCode ? this.pc : this.calls.find((c) => c.code === this.partCode)?.pc
    const line = pc === undefined ? 0 : (this.partLines[pc - 1] ?? 0)
    const at = line ? `${this.curFile}:${line}` : this.curFile
    this.report(
      'story/endless-loop',
      `${what}: it loops at ${at} with no option, link or '-> END' on the way; play stops here`,
      this.curFile,
      line ? { line, column: 1 } : undefined,
    )
    this.finish()
  }

  /** Runs instructions until an event is queued (when `pull`), a pause, the end or a part load. */
  private run(pull: boolean): void {
    while (!this.pending && !this.pause && !this.ended) {
      if (this.replay?.diverged) return
      if (pull && this.queue.length > this.qh) return
      if (++this.idle > STEP_LIMIT) {
        this.stopLoop('the story loops without showing anything')
        return
      }
      const ins = this.code[this.pc++]!
      switch (ins.op) {
        case Op.PARA: {
          if (ins.hold) {
            this.holdPara(ins)
            break
          }
          if (ins.inline.plain) {
            const text = renderPlain(ins.inline, this)
            if (text)
              this.block(
                this.replaying
                  ? { kind: 'paragraph', text, runs: [{ text }], tags: ins.tags, seen: true }
                  : { kind: 'paragraph', text, runs: [{ text }], tags: ins.tags },
              )
            break
          }
          const r = render(ins.inline, this)
          if (r.links.length) for (const l of r.links) this.links.push(l)
          if (r.text)
            this.block(
              this.replaying
                ? { kind: 'paragraph', text: r.text, runs: r.runs, tags: ins.tags, seen: true }
                : { kind: 'paragraph', text: r.text, runs: r.runs, tags: ins.tags },
            )
          break
        }
        case Op.HEAD: {
          // 1.1: a section's {temp}s live for one visit of it
          if (this.temps.size) this.temps.clear()
          this.vars.set(ins.key, ((this.vars.get(ins.key) as number | undefined) ?? 0) + 1)
          if (ins.turnKey !== undefined) this.vars.set(ins.turnKey, this.turns)
          if (!ins.silent) {
            if (this.held) this.flushPara()
            const r = render(ins.inline, this)
            this.block(
              this.replaying
                ? {
                    kind: 'heading',
                    level: ins.level,
                    id: ins.id,
                    text: r.text,
                    runs: r.runs,
                    tags: ins.tags,
                    seen: true,
                  }
                : {
                    kind: 'heading',
                    level: ins.level,
                    id: ins.id,
                    text: r.text,
                    runs: r.runs,
                    tags: ins.tags,
                  },
            )
          }
          break
        }
        case Op.EXEC:
          ins.run(this)
          break
        case Op.JF:
          if (!truthy(ins.cond(this))) this.pc = ins.to
          break
        case Op.GOTO:
          this.pc = ins.to
          break
        case Op.GROUP:
          if (this.threadRet.length) {
            gatherThread(this, ins, this.tunnels.slice())
            this.endThread()
          } else arrive(this, ins)
          break
        case Op.ALT: {
          const i = altIndex(this, ins.alt)
          this.pc = i < 0 ? ins.after : ins.to[i]!
          break
        }
        case Op.MARK:
          this.vars.set(ins.visitsKey, ((this.vars.get(ins.visitsKey) as number | undefined) ?? 0) + 1)
          this.vars.set(ins.turnKey, this.turns)
          break
        default:
          this.step(ins)
      }
    }
  }

  /** The instructions a story runs less often than text, groups and jumps: kept out of {@link run}, so its loop stays small. */
  private step(ins: Instr): void {
    switch (ins.op) {
      case Op.MEDIA:
        if (this.held) this.flushPara()
        if (this.source.hasAsset && !this.source.hasAsset(ins.path))
          this.report(
            'story/missing-media',
            `the media file '${ins.path}' is not in the archive`,
            this.curFile,
            ins.pos,
          )
        {
          const runs = ins.alt ? [{ text: ins.alt }] : []
          const { media, path, alt: text, tags } = ins
          this.block(
            this.replaying
              ? { kind: 'media', media, path, text, runs, tags, seen: true }
              : { kind: 'media', media, path, text, runs, tags },
          )
        }
        break
      case Op.END:
        if (this.threadRet.length) {
          this.endThread()
          break
        }
        this.links.length = 0
        this.finish()
        break
      case Op.DONE:
        this.done()
        break
      case Op.GATE:
        if (this.threadRet.length) {
          this.endThread()
          break
        }
        this.links.length = 0
        this.pending = { target: ins.target, initial: false }
        break
      case Op.TUNNEL:
        this.tunnel(ins)
        break
      case Op.TRET:
        this.tunnelReturn(ins)
        break
      case Op.THREAD:
        // a thread does not gather itself again (a '<-' inside the section it runs)
        if (this.threadTo.length && this.threadTo.includes(ins.to)) break
        this.threadTo.push(ins.to)
        this.threadRet.push(this.pc)
        this.threadTunnels.push(this.tunnels)
        this.tunnels = this.tunnels.slice()
        this.pc = ins.to
        break
      case Op.INSERT:
        this.insert(ins)
        break
      case Op.CALL:
        if (!this.replaying) {
          const args = ins.args.map((a) => a(this))
          callHost(this, ins.ns, ins.fn, args, ins.file, ins.pos)
        }
        break
      case Op.EOF:
        this.endOfFile()
        break
      case Op.RET: {
        const f = this.calls.pop()!
        this.code = f.code
        this.pc = f.pc
        this.frame = f.frame
        this.visitsKey = f.visitsKey
        break
      }
      case Op.BADJUMP:
        this.report(
          'story/unknown-id',
          `no heading, anchor or group '#${ins.id}' to jump to`,
          ins.file,
          ins.pos,
        )
        break
    }
  }

  /**
   * A 1.1 paragraph: held, not emitted, until the next text shows whether it continues it (`<>`
   * at the start of that text, or glue or a mid-line jump at the end of this one). What closes a
   * paragraph (a printed heading, media, a pause, a gate, a part entry, the end) emits it first.
   */
  private holdPara(ins: Extract<Instr, { op: typeof Op.PARA }>): void {
    let text: string
    let runs: TextRun[]
    if (ins.inline.plain) {
      text = renderPlain(ins.inline, this)
      runs = text ? [{ text }] : []
    } else {
      const r = render(ins.inline, this)
      if (r.links.length) for (const l of r.links) this.links.push(l)
      text = r.text
      runs = r.runs
    }
    const end = ins.end ?? GLUE.none
    const start = ins.start ?? GLUE.none
    const h = this.held
    if (!text) {
      // nothing to show: the glue written on this line still carries on (or closes) the chain
      if (h && (start || end)) h.end = end
      return
    }
    if (h) {
      if (h.end === GLUE.none && start === GLUE.none) this.flushPara()
      else {
        joinHeld(h, text, runs, h.end >= GLUE.space || start === GLUE.space)
        if (ins.tags.length) h.tags = h.tags.concat(ins.tags)
        h.end = end
        return
      }
    }
    this.held = { text, runs, tags: ins.tags, end, own: false }
  }

  /** Emits the held 1.1 paragraph, if any. */
  flushPara(): void {
    const h = this.held
    if (h === undefined) return
    this.held = undefined
    const { text, runs, tags } = h
    this.block(
      this.replaying
        ? { kind: 'paragraph', text, runs, tags, seen: true }
        : { kind: 'paragraph', text, runs, tags },
    )
  }

  private insert(ins: Extract<Instr, { op: typeof Op.INSERT }>): void {
    const def = ins.def
    if (!def) {
      this.report('story/unknown-function', `no passage '${ins.name}' is visible here`, ins.file, ins.pos)
      return
    }
    if (ins.args.length !== def.params.length) {
      this.report(
        'story/arity',
        `passage ${ins.name} takes ${def.params.length} argument(s), not ${ins.args.length}`,
        ins.file,
        ins.pos,
      )
      return
    }
    if (this.calls.length >= 64) {
      this.report('story/recursion', `passage ${ins.name} inserts itself`, ins.file, ins.pos)
      return
    }
    const args = ins.args.map((a) => a(this))
    this.calls.push({ code: this.code, pc: this.pc, frame: this.frame, visitsKey: this.visitsKey })
    if (ins.inPart) this.visitsKey = ins.visitsKey
    def.code ??= def.compile()
    this.code = def.code as Instr[]
    this.pc = 0
    this.frame = args
  }

  /**
   * A thread (1.1) stops running: at its first group, or where it would leave the part (`-> END`,
   * a gate, a tunnel into or a return to another part, the part's end, `->->` with nothing open).
   */
  private endThread(): void {
    this.threadTo.pop()
    this.pc = this.threadRet.pop()!
    this.tunnels = this.threadTunnels.pop()!
  }

  /**
   * `-> DONE` (1.1): a thread ends there; any other flow pauses on the options threads gathered and
   * the live links, as the end of a part does, and the story ends when there are none.
   */
  private done(): void {
    if (this.threadRet.length) {
      this.endThread()
      return
    }
    if (!this.pauseOnWaiting('@done')) this.finish()
  }

  /**
   * The end of a part or (1.1) a `-> DONE`: pauses on the live links and thread options left, if
   * any, at this instruction (false when there are none).
   */
  private pauseOnWaiting(at: '@end' | '@done'): boolean {
    if (this.held) this.flushPara()
    if (!this.links.length && !this.threadOpts.length) return false
    this.pc--
    endOfPartPause(this, at)
    return true
  }

  /** `-> #id ->` and `-> part.sty:id ->` (1.1). */
  private tunnel(ins: Extract<Instr, { op: typeof Op.TUNNEL }>): void {
    if (this.threadRet.length && ins.target !== undefined) {
      this.endThread()
      return
    }
    const code = this.partCode!
    this.tunnels.push({ id: ins.id, file: this.curFile, code, tags: this.partTags, pc: this.pc })
    if (ins.target === undefined) this.pc = ins.to
    else {
      // into another part, entered as a gate enters it
      this.links.length = 0
      this.pending = { target: ins.target, initial: false }
    }
  }

  /** `->->`, `->-> #id`, `->-> part.sty:id` (1.1); also the end of a part with a tunnel open. */
  private tunnelReturn(ins: Extract<Instr, { op: typeof Op.TRET }> | undefined): void {
    if (this.threadRet.length) {
      const f = this.tunnels[this.tunnels.length - 1]
      if (f === undefined || ins?.target !== undefined || f.file !== this.curFile) {
        this.endThread()
        return
      }
    }
    const f = this.tunnels.pop()
    if (f === undefined) {
      if (this.held) this.flushPara()
      this.report(
        'story/tunnel-return',
        "'->->' ran with no tunnel open, so the story ends here; reach it only through a tunnel call ('-> #id ->'), or end with '-> END'",
        ins!.file,
        ins!.pos,
      )
      this.links.length = 0
      this.finish()
      return
    }
    if (ins?.target !== undefined) {
      this.links.length = 0
      this.pending = { target: ins.target, initial: false }
    } else if (ins !== undefined && ins.to >= 0) this.pc = ins.to
    else if (f.file === this.curFile) {
      this.code = f.code
      this.pc = f.pc
    } else this.returnInto(f)
  }

  /**
   * Back from a tunnel into the caller's part (1.1): an entry into that part (a `part-entered`
   * event, `visitedParts`, block indexes from 0), without its declaration block and not counted by
   * `visits()`, that goes on after the call.
   */
  private returnInto(f: TunnelFrame): void {
    if (this.replay && !this.replay.onEnter(f.file)) {
      this.replay.diverged = true
      return
    }
    if (this.held) this.flushPara()
    this.returns ??= new Map()
    this.returns.set(f.file, (this.returns.get(f.file) ?? 0) + 1)
    this.entered.push(f.file)
    this.idle = 0
    this.sinceDecision = 0
    this.curFile = f.file
    this.nextIndex = 0
    this.lastIndex = -1
    this.links.length = 0
    if (this.threadOpts.length) this.threadOpts = []
    this.queue.push(
      this.replaying
        ? { type: 'part-entered', part: f.file, tags: f.tags, replay: true }
        : { type: 'part-entered', part: f.file, tags: f.tags },
    )
    if (this.replayed) this.replayedEntry = this.replayed.length
    this.code = f.code
    this.pc = f.pc
    this.partCode = f.code
    this.partPath = f.file
    this.partTags = f.tags
  }

  private endOfFile(): void {
    if (this.threadRet.length) {
      this.endThread()
      return
    }
    if (this.tunnels.length) {
      // a tunnelled section that runs off its part returns, as if '->->' ended it (ink stops with an error)
      this.tunnelReturn(undefined)
      return
    }
    if (this.pauseOnWaiting('@end')) return
    const i = this.source.parts.indexOf(this.curFile)
    const next = i >= 0 ? this.source.parts[i + 1] : undefined
    if (next === undefined) this.finish()
    else this.pending = { target: next, initial: false }
  }
}
