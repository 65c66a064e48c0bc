// autocannon ships no type declarations; the part of its API this benchmark uses.
declare module 'autocannon' {
  interface Histogram {
    average: number
    mean: number
    p50: number
    p99: number
    max: number
  }
  export interface Result {
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
    duration: number
  }
  export interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
    pipelining?: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
