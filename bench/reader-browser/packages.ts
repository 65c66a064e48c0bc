// The packages live with `pnpm bench reader`, which measured them first.
export * from '../reader/packages.ts'
