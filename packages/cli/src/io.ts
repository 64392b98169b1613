/** The streams a command talks to; tests pass their own. */
export interface CliIO {
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: Record<string, string | undefined>
}

/** Exit codes of the `spillway` command. */
export const EXIT = Object.freeze({
  ok: 0,
  /** The command ran and failed: unknown blob id, store error, nothing to read. */
  failure: 1,
  /** Bad usage: unknown command or option, bad value. */
  usage: 2,
})

/** A usage error: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** Writes `text` and resolves once the stream took it (so exit codes follow the output). */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()))
  })
}
