/** The text of `spillway --help`. */
export const HELP = `spillway: keep LLM-agent context lean without losing anything

Usage:
  spillway trim [FILE|-] [--tool NAME] [--max-chars N | --context-window N] [--max-tokens N] [--json]
  spillway spill [FILE|-] [--tool NAME] [--max-chars N] [--max-tokens N] [--session S] [--dir DIR] [--json]
  spillway fetch ID [--mode stat|range|grep|full] [--start N] [--count N] [--offset N]
                 [--pattern P [--literal] [-i|--ignore-case]] [--context N] [--page N] [--raw]
                 [--session S] [--dir DIR] [--json]
  spillway stats [--days N | --session S] [--dir DIR] [--json]
  spillway sweep [--dir DIR] [--json]
  spillway sidecar [--dir DIR] [--max-chars N] [--max-tokens N]    JSON lines on stdin/stdout (see README)
  spillway mcp [OPTIONS] -- COMMAND [ARGS...] | --url URL | --config FILE    MCP proxy
  spillway --help | --version | COMMAND --help

trim     reads a tool result (FILE, or stdin) and prints the excerpt the model should see
         (--json: the whole outcome: text, kind, sizes, omitted lines, salient lines).
spill    like trim, and stores the whole result when it does not fit: prints the excerpt with
         its handle block; read the rest back with "spillway fetch ID" (--json: the outcome).
fetch    reads a spilled result by its handle id, as the model's fetch_result tool would
         (--mode defaults to stat).
stats    blobs, bytes and sessions in the store, and what was saved per tool and day
         (results seen, trimmed, spilled, chars and tokens in and out, fetches by mode).
sweep    removes expired blobs and tombstones, enforces the size cap.
sidecar  a long-lived process for agents in other languages (the Hermes plugin uses it):
         ops ping, handle, fetch, fetch_result, describe, trim, stats, sweep, shutdown.
mcp      spillway in front of any MCP server: large tool results become an excerpt plus a
         fetch_result handle, long tool lists are deferred behind tool_search.

Store: --store (a folder, redis://host:port/db or rediss://...), else $SPILLWAY_STORE, else the
folder --dir, else $SPILLWAY_DIR, else the user's cache folder (~/.cache/spillway). Every command
and the sidecar take --store, so processes on several hosts can share one Redis store.
Session: --session, else $SPILLWAY_SESSION, else "cli". A session only sees its own blobs.
Encryption at rest: $SPILLWAY_KEY (32 bytes, base64 or hex: openssl rand -base64 32) seals
every stored chunk with AES-256-GCM in spill, fetch, stats, sidecar and mcp.

Exit codes: 0 ok; 1 the command ran and failed (unknown or expired id, store error);
2 bad usage (unknown command or option, bad value). Results go to stdout, errors to stderr.
`

/** `spillway COMMAND --help`: usage, options and an example for each command. */
export const COMMAND_HELP: Readonly<Record<string, string>> = Object.freeze({
  trim: `Usage: spillway trim [FILE|-] [--tool NAME] [--max-chars N | --context-window N] [--max-tokens N] [--json]

Reads a tool result from FILE (or stdin, also with "-") and prints the excerpt the model should
see. Nothing is stored: use "spillway spill" to keep the whole result and get a handle.

  --tool NAME           tool that produced the result; picks the profile (terminal, read_file, ...)
  --max-chars N         budget of the excerpt, in chars (>= 1)
  --context-window N    model window in tokens; the budget is derived from it
  --max-tokens N        budget in tokens (>= 1), held exactly with the o200k tokenizer when the
                        optional gpt-tokenizer package is installed, else estimated at 3 chars per
                        token; with --max-chars too, both hold
  --json                print the whole outcome (text, kind, sizes, omitted and salient lines)

Binary input (a NUL byte, invalid UTF-8) prints a placeholder with its type and size.
Example: make 2>&1 | spillway trim --tool terminal --max-chars 8000
`,
  spill: `Usage: spillway spill [FILE|-] [--tool NAME] [--max-chars N] [--max-tokens N] [--session S] [--dir DIR] [--json]

Like "spillway trim", and stores the whole result when it does not fit the budget. Prints the
excerpt and the handle block; "spillway fetch ID" reads the rest (same --dir and --session).
A result that fits is printed unchanged and nothing is stored.

  --tool NAME      tool that produced the result; picks the profile
  --max-chars N    budget of what is printed, excerpt and handle block together (>= 1)
  --max-tokens N   budget in tokens, as N * 3 chars (an estimate; the smaller of the two wins)
  --session S      session the handle belongs to (else $SPILLWAY_SESSION, else "cli")
  --dir DIR        store folder (else $SPILLWAY_DIR, else the user's cache folder)
  --json           print the outcome: content, handle (id, sizes) and the trim outcome

Example: npm test 2>&1 | spillway spill --tool terminal && spillway fetch <id> --mode grep --pattern FAIL
`,
  fetch: `Usage: spillway fetch ID [--mode stat|range|grep|full] [--start N] [--count N] [--offset N]
                      [--pattern P [--literal] [-i|--ignore-case]] [--context N] [--page N] [--raw]
                      [--session S] [--dir DIR] [--json]

Reads a spilled result by its handle id, as the model's fetch_result tool would.

  --mode M         stat (default): sizes; range: lines --start/--count (or chars --offset/--count);
                   grep: lines matching --pattern (a linear-time regex, or --literal text), with
                   --context lines around and --page; full: everything, when under the cap
  --raw            range/grep read the output as the tool returned it (colour codes, the JSON
                   around the text) instead of the text the excerpt numbers
  --session S      the session that spilled it (else $SPILLWAY_SESSION, else "cli")
  --dir DIR        store folder (else $SPILLWAY_DIR, else the user's cache folder)
  --json           the answer as JSON ({ ok, text, ... }) on stdout, also when it is a refusal

Example: spillway fetch 3f2a9c0d1e2b --mode grep --pattern "error|FAIL" --context 2
`,
  stats: `Usage: spillway stats [--days N | --session S] [--store URL|DIR | --dir DIR] [--json]

Blobs, stored bytes, tombstones and sessions of a store (of one session with --session), then
what was saved per tool, summed over every process that shares the store (CLI runs, sidecars,
agents on other hosts sharing a Redis store): results seen, passed, trimmed, spilled, chars and
tokens in and out (tokens: estimated at 4 chars per token unless the agent gave a tokenizer),
secrets redacted, fetch_result calls by mode. --json prints the same figures as JSON. A store
folder that does not exist is an error.

  --days N         usage of the last N UTC days, today included (default: every day kept, 400)
  --session S      only that session's blobs (usage spans sessions, so it is left out)

Example: spillway stats --days 7 --store redis://127.0.0.1:6379/0
`,
  sweep: `Usage: spillway sweep [--dir DIR] [--json]

Removes expired blobs and tombstones and enforces the size cap; prints what it removed.
`,
  sidecar: `Usage: spillway sidecar [--dir DIR] [--max-chars N] [--max-tokens N]

A long-lived process for agents in other languages (the Hermes plugin uses it): JSON lines on
stdin/stdout, ops ping, handle, fetch, fetch_result, describe, trim, stats, sweep, shutdown.
See the CLI's README for the protocol.
`,
  mcp: `Usage: spillway mcp [OPTIONS] -- COMMAND [ARGS...]
       spillway mcp [OPTIONS] --url URL [--transport http|sse] [--header "Name: value"]...
       spillway mcp [OPTIONS] --config FILE

An MCP proxy: put it in front of any MCP server by prefixing the server's command in your MCP
client's config. Everything passes through unchanged, except tool results over the budget (an
excerpt, a handle block and a resource_link; read the rest with the fetch_result tool or
resources/read of the spillway:// URI) and, when deferral is on, the tool list.

  -- COMMAND ARGS      the upstream server, spawned and spoken to over stdio
  --url URL            an upstream served over HTTP (--header for auth, repeatable): Streamable
                       HTTP, or the legacy HTTP+SSE transport when the server refuses the
                       initialize POST with 400, 404 or 405
  --transport T        with --url: http (Streamable HTTP only) or sse (legacy SSE only)
  --config FILE        several upstreams, in the "mcpServers" shape of Claude Desktop / Cursor /
                       Claude Code config files; colliding tool names become server__tool
  --name NAME          upstream name (default: the command's basename or the URL's host)
  --listen HOST:PORT   serve Streamable HTTP on http://HOST:PORT/mcp instead of stdio
                       (one session per client; a session reads only its own spills;
                       sessions idle for 30 min end, their upstreams stopped)
  --allowed-hosts a,b  with --listen: host names accepted in the Host header (DNS rebinding
                       protection; default localhost, 127.0.0.1, [::1] and the listen address)
  --allowed-origins o  with --listen: browser origins accepted (https://app.example:8443,
                       comma-separated; default: origins on an allowed host)
  --max-sessions N     with --listen: sessions open at once (default 32; each has its own
                       upstream processes)
  --session-idle S     with --listen: seconds without activity after which a session ends and
                       its upstreams stop (default 1800), or never
  --max-chars N        budget of one tool result as the model sees it, in chars
  --context-window N   model window in tokens: derives the budget, and the --defer auto gate
  --defer auto|on|off  hide the tool list behind tool_search/tool_describe/tool_call
                       (auto: when the schemas take over 10% of the window; default auto)
  --expose a,b         tools never deferred
  --profile TOOL=P     trim profile of a tool (default, terminal, read_file, search, web, exempt);
                       repeatable. Without it: the tool's name, else its title and annotations
  --timeout MS         time an upstream call may take before the client gets an error
                       (default 60000; a hung upstream is restarted for the next call)
  --store URL|DIR      store: a folder or redis://host:port/db (else $SPILLWAY_STORE, else
                       the folder: --dir, $SPILLWAY_DIR, the user's cache folder)
  --keep-output-schemas  keep the tools' outputSchema (dropped by default: an excerpt of a
                       structured result cannot match it)
  --quiet              no warnings and no upstream stderr on stderr

Example (Claude Desktop / Cursor / Claude Code config):
  { "mcpServers": { "github": { "command": "spillway",
      "args": ["mcp", "--", "npx", "-y", "@modelcontextprotocol/server-github"] } } }
`,
})

/** Edit distance of two short strings, adjacent swaps counting one (for "did you mean"). */
function distance(a: string, b: string): number {
  let before: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      // a swap of two neighbours (`fecth`) is one typo, not two
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j]!, before[j - 2]! + 1)
    }
    before = prev
    prev = cur
  }
  return prev[b.length]!
}

/** The known word closest to `word`, when one is close enough to be a typo (or `word` is its prefix). */
export function suggest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestD = Infinity
  for (const k of known) {
    const d = k.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, k)
    if (d < bestD) (best = k), (bestD = d)
  }
  return bestD <= Math.max(1, Math.floor(word.length / 4)) + 0.5 ? best : undefined
}
