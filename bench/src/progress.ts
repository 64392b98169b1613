/** Progress lines on stderr (stdout stays clean for the summary). */
export type Progress = (line: string) => void

/** A progress printer that prefixes the elapsed seconds since it was made. */
export function createProgress(enabled = true): Progress {
  const t0 = performance.now()
  return (line) => {
    if (enabled) process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}\n`)
  }
}
