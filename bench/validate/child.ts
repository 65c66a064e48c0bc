/**
 * One measured `checkStory` run of `pnpm bench validate`, in its own process so the peak memory
 * (VmHWM) is the run's own: `child.mjs <input.json>` reads `{ parts, order, modules }` and prints
 * `{ ms, cpuMs, hwmKiB, baseKiB, diagnostics }` (`baseKiB`: the process before the check, input loaded).
 */
import { readFileSync } from 'node:fs'
import { checkStory } from '@spkg/story'

const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1])
const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Parameters<typeof checkStory>[0]
const baseKiB = hwm()
const t0 = performance.now()
const cpu0 = process.cpuUsage()
const diagnostics = checkStory(input).length
const cpu = process.cpuUsage(cpu0)
const ms = performance.now() - t0
console.log(
  JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, hwmKiB: hwm(), baseKiB, diagnostics }),
)
