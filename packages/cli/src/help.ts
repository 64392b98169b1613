/** The text of `spillway --help`. */
export const HELP = `spillway: keep LLM-agent context lean without losing anything

Usage:
  spillway trim [--tool NAME] [--max-chars N | --context-window N] [--json]   < result
  spillway fetch ID [--mode stat|range|grep|full] [--start N] [--count N] [--offset N]
                 [--pattern P [--literal] [-i|--ignore-case]] [--context N] [--page N]
                 [--session S] [--dir DIR] [--json]
  spillway stats [--session S] [--dir DIR] [--json]
  spillway sweep [--dir DIR] [--json]
  spillway sidecar [--dir DIR] [--max-chars N]    JSON lines on stdin/stdout (see README)
  spillway --help | --version

trim     reads a tool result on stdin and prints the excerpt the model should see
         (--json: the whole outcome: text, kind, sizes, omitted lines, salient lines).
fetch    reads a spilled result by its handle id, as the model's fetch_result tool would
         (--mode defaults to stat).
stats    blobs, bytes, sessions and chars saved in the store.
sweep    removes expired blobs and tombstones, enforces the size cap.
sidecar  a long-lived process for agents in other languages (the Hermes plugin uses it):
         ops ping, handle, fetch, fetch_result, describe, trim, stats, sweep, shutdown.

Store folder: --dir, else $SPILLWAY_DIR, else the user's cache folder (~/.cache/spillway).
Session: --session, else $SPILLWAY_SESSION, else "cli". A session only sees its own blobs.

Exit codes: 0 ok; 1 the command ran and failed (unknown or expired id, store error);
2 bad usage (unknown command or option, bad value). Results go to stdout, errors to stderr.
`
