import { DEFAULT_TOOL_PROFILES } from '@spillway/core'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/**
 * A trim profile for an upstream tool whose name maps to none, from what the server says of it:
 * its `title` (annotation or field) read as a tool name (`"Read File"` is `read_file`), else a
 * read-only tool of the open world (`readOnlyHint` and `openWorldHint`: a fetch, a search of the
 * web) gets the `web` profile. Core uses the hint only when the tool's own name maps to no
 * profile and no override names one.
 */
export function profileHint(tool: Pick<Tool, 'title' | 'annotations'> | undefined): string | undefined {
  if (tool === undefined) return undefined
  const title = tool.annotations?.title ?? tool.title
  if (typeof title === 'string') {
    const key = title.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')
    const byTitle = DEFAULT_TOOL_PROFILES[key]
    if (byTitle !== undefined && byTitle !== 'exempt') return byTitle
  }
  if (tool.annotations?.readOnlyHint === true && tool.annotations.openWorldHint === true) return 'web'
  return undefined
}
