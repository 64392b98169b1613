import type { ContentKind, HandleResult } from '@spillway/core'
import type { CallToolResult, ContentBlock, ResourceLink } from '@modelcontextprotocol/sdk/types.js'
import { SPILLWAY_URI_PREFIX } from './types.js'

/**
 * What the result rewrite needs from the proxy: core's `handle`, bound to the connection's
 * session, with an optional budget (chars) for this one part of a result.
 */
export type HandleFn = (tool: string, result: string, args: unknown, toolCallId: string, maxChars?: number) => Promise<HandleResult>

/**
 * Each part's budget when the parts of one result (its text, its structured content, each text
 * resource) share `budget`: when they fit together, each keeps the whole budget (nothing is
 * cut); else parts smaller than an even share keep theirs whole and the rest split what is left
 * evenly (water-filling), so the parts shown add up to at most `budget`.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  if (sizes.reduce((a, b) => a + b, 0) <= budget) return sizes.map(() => budget)
  const out = sizes.map(() => 0)
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]! || a - b)
  let left = budget
  order.forEach((i, k) => {
    const fair = Math.floor(left / (order.length - k))
    // Never below MIN_PART_CHARS: room for a handle, so a part cut is always stored whole.
    out[i] = sizes[i]! <= fair ? sizes[i]! : Math.max(MIN_PART_CHARS, fair)
    left = Math.max(0, left - out[i]!)
  })
  return out
}

/**
 * Least budget a part of a result gets when parts share one (room for an excerpt line and a
 * handle). A result with more large parts than `budget / MIN_PART_CHARS` is excerpted as one
 * document instead (`rewriteCrowded`), so the budget holds.
 */
export const MIN_PART_CHARS = 200

const isText = (b: ContentBlock): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text'

/** MIME type of a spilled blob, from core's content kind. */
export function mimeTypeOf(kind: ContentKind | string): string {
  return kind === 'json' ? 'application/json' : 'text/plain'
}

/** The `resource_link` block that points at a spilled blob. */
export function resourceLink(id: string, tool: string, text: string, kind: string): ResourceLink {
  return {
    type: 'resource_link',
    uri: `${SPILLWAY_URI_PREFIX}${id}`,
    name: `spillway-${id}`,
    title: `Full result of ${tool}`,
    description: 'The whole tool result the excerpt above was cut from (read it with resources/read or fetch_result).',
    mimeType: mimeTypeOf(kind),
    size: Buffer.byteLength(text, 'utf8'), // counted, not encoded: results are megabytes
  }
}

/** Whether a text block is the serialisation of `structuredContent` (servers send both for old clients). */
function isSerialisationOf(text: string, structured: unknown): boolean {
  const t = text.trimStart()
  if (!(t.startsWith('{') || t.startsWith('['))) return false
  try {
    return JSON.stringify(JSON.parse(t)) === JSON.stringify(structured)
  } catch {
    return false
  }
}

type EmbeddedResource = Extract<ContentBlock, { type: 'resource' }>
const isTextResource = (b: ContentBlock): b is EmbeddedResource & { resource: { text: string } } => b.type === 'resource' && typeof (b.resource as { text?: unknown }).text === 'string'

/**
 * Embedded `resource` blocks with `text` (a file's content, as github-mcp-server's
 * `get_file_contents` sends it) are budgeted like text, each on its own: over budget, the
 * excerpt and handle block replace the resource's `text` (its `uri`, `mimeType` and `_meta`
 * kept) and a `resource_link` to the spilled blob follows it. Blob (base64) resources pass, like
 * images: an excerpt of base64 tells a model nothing. Returns `result` itself when nothing changed.
 */
async function rewriteEmbeddedResources(result: CallToolResult, tool: string, args: unknown, toolCallId: string, handle: HandleFn, shares: readonly (number | undefined)[]): Promise<CallToolResult> {
  const content = Array.isArray(result.content) ? result.content : []
  if (!content.some(isTextResource)) return result
  const blocks: ContentBlock[] = []
  let changed = false
  let r = 0
  for (const [i, b] of content.entries()) {
    if (!isTextResource(b)) {
      blocks.push(b)
      continue
    }
    const text = b.resource.text
    const h = await handle(tool, text, args, `${toolCallId}:resource:${i}`, shares[r++])
    if (!h.changed) {
      blocks.push(b)
      continue
    }
    changed = true
    blocks.push({ ...b, resource: { ...b.resource, text: h.content } })
    if (h.handle !== undefined) blocks.push(resourceLink(h.handle.id, tool, text, h.outcome.kind))
  }
  return changed ? { ...result, content: blocks } : result
}

/** The header line that opens each part in a crowded result's one document ({@link rewriteCrowded}). */
function partHeader(b: ContentBlock | 'structured'): string {
  if (b === 'structured') return '--- structuredContent ---'
  if (isTextResource(b)) return `--- resource ${b.resource.uri}${b.resource.mimeType !== undefined ? ` (${b.resource.mimeType})` : ''} ---`
  return '--- text ---'
}

/**
 * A result with more large text parts than `budget / MIN_PART_CHARS`: giving each its own excerpt
 * and handle would pass the budget, so its text parts (text blocks, structured content, embedded
 * text resources) become one document, each part under a header line naming it (a resource by its
 * uri), spilled once: one excerpt within `budget` where the first of them was, one
 * `resource_link` to the whole document. Other blocks (images, links, blob resources) keep their
 * order; `structuredContent` is in the document, so it is not sent again.
 */
async function rewriteCrowded(result: CallToolResult, parts: readonly (string | undefined)[], tool: string, args: unknown, toolCallId: string, handle: HandleFn, budget: number): Promise<CallToolResult> {
  const content = Array.isArray(result.content) ? result.content : []
  const doc: string[] = []
  if (content.some(isText)) doc.push(partHeader({ type: 'text', text: '' }), parts[0]!)
  else if (parts[0] !== undefined) doc.push(partHeader('structured'), parts[0])
  if (parts[1] !== undefined) doc.push(partHeader('structured'), parts[1])
  for (const b of content) if (isTextResource(b)) doc.push(partHeader(b), b.resource.text)
  const text = doc.join('\n')
  const h = await handle(tool, text, args, toolCallId, budget)
  if (!h.changed) return result
  const blocks: ContentBlock[] = []
  let placed = false
  for (const b of content) {
    if (!isText(b) && !isTextResource(b)) blocks.push(b)
    else if (!placed) (blocks.push({ type: 'text', text: h.content }), (placed = true))
  }
  if (!placed) blocks.unshift({ type: 'text', text: h.content })
  if (h.handle !== undefined) blocks.push(resourceLink(h.handle.id, tool, text, h.outcome.kind))
  const next: CallToolResult = { ...result, content: blocks }
  delete next.structuredContent
  return next
}

/**
 * A `tools/call` result as the host should see it. Text blocks (joined by newlines) go through
 * core's `handle`: when they fit they come back untouched and the result is returned as is, byte
 * for byte; when they do not, they become one text block (excerpt + handle block) where the first
 * text block was, followed by a `resource_link` to the spilled blob. `structuredContent` over
 * budget is spilled and dropped, never sent twice: when a text block is its serialisation only the
 * text is handled; beside other text that was excerpted it is only linked; beside small text it
 * gets its own JSON excerpt. Embedded text resources over budget are excerpted in place
 * ({@link rewriteEmbeddedResources}). When the parts do not fit together they share the budget
 * ({@link shareBudget}); with more large parts than it has room for, they are excerpted as one
 * document ({@link rewriteCrowded}). Image, audio, blob resource and link blocks, `isError` and
 * `_meta` pass unchanged.
 * Fails open: any error gives the original result.
 */
export async function rewriteToolResult(result: CallToolResult, tool: string, args: unknown, toolCallId: string, handle: HandleFn, onWarning: (m: string) => void, budget?: number): Promise<CallToolResult> {
  try {
    const content = Array.isArray(result.content) ? result.content : []
    const structured = result.structuredContent
    const textBlocks = content.filter(isText)
    const textIsStructured = structured !== undefined && textBlocks.length === 1 && isSerialisationOf(textBlocks[0]!.text, structured)
    // The one text the model would read: the text blocks, or the structured content when there are none.
    const source = textBlocks.length > 0 ? textBlocks.map((b) => b.text).join('\n') : structured !== undefined ? JSON.stringify(structured) : undefined
    const beside = structured !== undefined && textBlocks.length > 0 && !textIsStructured ? JSON.stringify(structured) : undefined
    const resources = content.filter(isTextResource).map((b) => b.resource.text)
    // The parts share the budget, so what the host is sent adds up to it (each part alone fitting
    // is not enough). An absent part is size 0 (share 0), so part i is always at index i.
    const parts = [source, beside, ...resources]
    const present = parts.filter((t) => t !== undefined).length
    const sizes = parts.map((t) => t?.length ?? 0)
    const shares: (number | undefined)[] = budget === undefined || present < 2 ? [] : shareBudget(sizes, budget)
    // More large parts than the budget has room for (each cut part needs a handle): one excerpt of them all.
    if (budget !== undefined && shares.reduce<number>((n, x, i) => n + Math.min(x!, sizes[i]!), 0) > budget) {
      return await rewriteCrowded(result, parts, tool, args, toolCallId, handle, budget)
    }
    let next = result
    let textSpilled = false
    if (source !== undefined) {
      const h = await handle(tool, source, args, toolCallId, shares[0])
      if (h.changed) {
        textSpilled = true
        const blocks: ContentBlock[] = []
        let placed = false
        for (const b of content) {
          if (!isText(b)) blocks.push(b)
          else if (!placed) (blocks.push({ type: 'text', text: h.content }), (placed = true))
        }
        if (!placed) blocks.unshift({ type: 'text', text: h.content })
        if (h.handle !== undefined) blocks.push(resourceLink(h.handle.id, tool, source, h.outcome.kind))
        next = { ...result, content: blocks }
        // The structured content was the source (or the text is its serialisation): do not send it whole again.
        if (textBlocks.length === 0 || textIsStructured) delete next.structuredContent
      }
    }
    // Structured content beside other text: it costs context on its own (hosts may show both).
    if (beside !== undefined && next.structuredContent !== undefined) {
      const h = await handle(tool, beside, args, `${toolCallId}:structured`, shares[1])
      if (h.changed) {
        const blocks = [...(next.content ?? [])]
        // Text already excerpted (servers often send the same data both ways): link the JSON, do not excerpt it twice.
        if (!textSpilled) blocks.push({ type: 'text', text: h.content })
        if (h.handle !== undefined) blocks.push(resourceLink(h.handle.id, tool, beside, 'json'))
        next = { ...next, content: blocks }
        delete next.structuredContent
      }
    }
    return await rewriteEmbeddedResources(next, tool, args, toolCallId, handle, shares.slice(2))
  } catch (err) {
    onWarning(`trimming the result of ${tool} failed, passing it unchanged: ${(err as Error).message}`)
    return result
  }
}
