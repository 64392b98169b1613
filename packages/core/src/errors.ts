const MARKER = Symbol.for('spillway.error')

/** Machine-readable reason of a {@link SpillwayError}. */
export type SpillwayErrorCode =
  | 'invalid_argument'
  | 'invalid_id'
  | 'not_found'
  | 'integrity'
  | 'store'
  | 'regex_refused'
  | 'regex_timeout'
  | 'too_large'
  | 'scope'

/**
 * The one error type of spillway. Detect it with {@link SpillwayError.is}, which also
 * matches instances from a duplicated copy of the package.
 */
export class SpillwayError extends Error {
  readonly [MARKER] = true
  readonly code: SpillwayErrorCode

  constructor(code: SpillwayErrorCode, message: string, options?: { cause?: unknown }) {
    super(`spillway: ${message}`, options)
    this.name = 'SpillwayError'
    this.code = code
  }

  static is(value: unknown): value is SpillwayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true
  }
}
