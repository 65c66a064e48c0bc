// Merges with bench/api/autocannon.d.ts: the parts of autocannon's API this benchmark uses on top.
declare module 'autocannon' {
  interface Options {
    requests?: Array<{ method?: string; path?: string; headers?: Record<string, string> }>
  }
  interface Result {
    throughput: { average: number }
  }
}
