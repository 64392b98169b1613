// A Nest-style logger: writes straight to stdout/stderr (not through console), one line per entry.
const pid = 4242
const stamp = () => '11/27/2026, 10:40:00 PM'
const write = (stream, level, context, message) =>
  stream.write(`[Nest] ${pid}  - ${stamp()}   ${level.padStart(5)} [${context}] ${message}\n`)
module.exports = {
  log: (context, message) => write(process.stdout, 'LOG', context, message),
  warn: (context, message) => write(process.stdout, 'WARN', context, message),
  error: (context, message, trace) => { write(process.stderr, 'ERROR', context, message); if (trace) process.stderr.write(trace + '\n') },
}
