/**
 * The bench story of bench/story (2,000 sections) as a packaged story of several parts: every
 * `partSize` sections go to their own part, each part `{use}`s the module, and a jump to a section
 * of another part becomes a gate in the option's body (`[[ 0003-rooms.sty:s123 ]]`), so the
 * whole-package checks (targets across parts, reachability, variables) have work to do.
 */
import { generateSpkgStory } from '../story/generate.ts'

export interface SplitStory {
  /** Archive path to text: `manifest.json`, the parts, `extensions/lib.xty`. */
  files: Record<string, string>
  parts: string[]
}

const partName = (k: number) => `story/${String(k + 1).padStart(4, '0')}-rooms.sty`

export function splitBenchStory(sections: number, partSize: number): SplitStory {
  const { part, module } = generateSpkgStory(sections)
  const lines = part.trimEnd().split('\n')
  const first = lines.findIndex((l) => l.startsWith('# Room '))
  const header = lines.slice(0, first)
  const partOf = (section: number) => Math.floor(section / partSize)
  const parts: string[][] = []
  let current = -1
  for (const line of lines.slice(first)) {
    const room = /^# Room (\d+) /.exec(line)
    if (room) {
      const k = partOf(Number(room[1]))
      if (k !== current) {
        current = k
        parts.push(k === 0 ? [...header] : ['{use lib}'])
      }
    }
    const jump = /^([*+] ?.*?) ?-> #s(\d+)$/.exec(line)
    const target = jump ? partOf(Number(jump[2])) : current
    if (jump && target !== current) {
      parts[current]!.push(
        jump[1]!.trimEnd(),
        `  [[ ${partName(target).slice('story/'.length)}:s${jump[2]} ]]`,
      )
    } else parts[current]!.push(line)
  }
  const files: Record<string, string> = { 'extensions/lib.xty': module }
  const names = parts.map((_, k) => partName(k))
  parts.forEach((p, k) => {
    files[names[k]!] = `${p.join('\n')}\n`
  })
  files['manifest.json'] = JSON.stringify({ story_lang: '1.0', parts: names }, null, 2)
  return { files, parts: names }
}
