/**
 * `manifest.sensors`: device capabilities a story asks for. Nothing is requested unless the story lists the sensor
 * AND the reader ticks it in the consent prompt before the story starts (prepareStart); only then does the player
 * start it (the browser may then ask its own permission). A story reads the readings through the `sensors` host
 * namespace (`sensors.read("geolocation")`, declared with `{extern sensors.read(name)}` and `"requires":
 * ["sensors"]`); the map section shows the location. docs/manifest-fields.md.
 */
import type { JsonValue } from '@spkg/manifest'
import type { HostFunctions } from '@spkg/story'

/** The host namespace of the sensors. */
export const SENSORS_NAMESPACE = 'sensors'

/** The sensors the player knows, with what the consent prompt says of each. */
export const KNOWN_SENSORS: Record<string, { label: string; why: string }> = {
  geolocation: {
    label: 'Your location',
    why: 'where you are, to show on the map and for the story to react to',
  },
  orientation: { label: 'Device orientation', why: 'which way the device points' },
  motion: { label: 'Device motion', why: 'how the device moves (shakes, tilts)' },
}

/** The story's sensors split into those the player can offer and those it cannot. */
export function sensorPlan(sensors: readonly string[] | undefined): { known: string[]; unknown: string[] } {
  const known: string[] = []
  const unknown: string[] = []
  for (const s of new Set(sensors ?? [])) (Object.hasOwn(KNOWN_SENSORS, s) ? known : unknown).push(s)
  return { known, unknown }
}

/** Why this browser cannot give a sensor, or undefined when it can. */
export function sensorUnavailable(name: string): string | undefined {
  if (name === 'geolocation')
    return typeof navigator !== 'undefined' && 'geolocation' in navigator
      ? undefined
      : 'no location in this browser'
  if (name === 'orientation')
    return typeof DeviceOrientationEvent !== 'undefined' ? undefined : 'no orientation sensor in this browser'
  if (name === 'motion')
    return typeof DeviceMotionEvent !== 'undefined' ? undefined : 'no motion sensor in this browser'
  return 'this player does not know this sensor'
}

/** Live readings of the sensors the reader allowed. */
export interface SensorHub {
  granted: readonly string[]
  /** `{ sensors: { read } }` for the run's `host` option: the latest reading, or false. */
  host: HostFunctions
  reading(name: string): JsonValue | undefined
  /** The latest problem of a sensor (permission refused, unavailable). */
  problem(name: string): string | undefined
  onChange(listener: () => void): () => void
  stop(): void
}

const round = (n: number | null | undefined, digits = 5) =>
  typeof n === 'number' && Number.isFinite(n) ? Number(n.toFixed(digits)) : null

/** Starts the sensors of `granted` (only those: a sensor the reader did not allow is never touched). */
export function startSensors(granted: readonly string[]): SensorHub {
  const readings = new Map<string, JsonValue>()
  const problems = new Map<string, string>()
  const listeners = new Set<() => void>()
  const cleanups: Array<() => void> = []
  const changed = () => {
    for (const l of listeners) l()
  }
  for (const name of granted) {
    const why = sensorUnavailable(name)
    if (why) {
      problems.set(name, why)
      continue
    }
    if (name === 'geolocation') {
      const id = navigator.geolocation.watchPosition(
        (p) => {
          readings.set(name, {
            lat: round(p.coords.latitude),
            lon: round(p.coords.longitude),
            accuracy: round(p.coords.accuracy, 0),
          })
          problems.delete(name)
          changed()
        },
        (e) => {
          problems.set(name, e.code === 1 ? 'permission refused' : 'position unavailable')
          changed()
        },
        { enableHighAccuracy: true, maximumAge: 10_000 },
      )
      cleanups.push(() => navigator.geolocation.clearWatch(id))
    } else if (name === 'orientation') {
      const on = (e: DeviceOrientationEvent) => {
        readings.set(name, { alpha: round(e.alpha, 1), beta: round(e.beta, 1), gamma: round(e.gamma, 1) })
        changed()
      }
      addEventListener('deviceorientation', on)
      cleanups.push(() => removeEventListener('deviceorientation', on))
    } else if (name === 'motion') {
      const on = (e: DeviceMotionEvent) => {
        const a = e.accelerationIncludingGravity
        readings.set(name, { x: round(a?.x, 2), y: round(a?.y, 2), z: round(a?.z, 2) })
        changed()
      }
      addEventListener('devicemotion', on)
      cleanups.push(() => removeEventListener('devicemotion', on))
    }
  }
  return {
    granted,
    host: {
      [SENSORS_NAMESPACE]: {
        read: (name) => (typeof name === 'string' && readings.has(name) ? readings.get(name)! : false),
      },
    },
    reading: (name) => readings.get(name),
    problem: (name) => problems.get(name),
    onChange(l) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    stop() {
      for (const c of cleanups.splice(0)) c()
      listeners.clear()
    },
  }
}
