import { ToolInvocationError, createMiddleware } from 'langchain'
import { ToolMessage, type BaseMessage } from '@langchain/core/messages'
import type { HandleResult, SearchMode, Size, Spillway, Telemetry, ToolIndex } from '@spillway/core'
import { selectTools } from '@spillway/core'
import { fetchResultTool } from './fetch-tool.js'
import { toolName } from './descriptors.js'
import { calledToolNames, contentText, lastHumanText, withContent } from './messages.js'
import { sessionResolver } from './session.js'
import { compactMessages, contextWindowOf, type CompactionOptions } from './compaction.js'

/** Tool selection per model call, for {@link SpillwayMiddlewareOptions.select}. */
export interface SelectOptions {
  /** Index over the agent's tools (`createToolIndex(toolDescriptors(tools))`). */
  index: ToolIndex
  /** Tools offered per call besides pinned and sticky ones. Range >= 0. @default 8 */
  k?: number
  /** Tools offered on every call. @default [] */
  pinned?: readonly string[]
  /** How the query is matched; `undefined` lets the index choose. */
  mode?: SearchMode
  /**
   * OpenTelemetry tracer and meter for a `spillway.select` span per model call (core
   * `selectTools`); pass the ones you give `createSpillway`. No-op when absent.
   */
  telemetry?: Telemetry
}

/** Options of {@link spillwayMiddleware}. */
export interface SpillwayMiddlewareOptions {
  /** The spill layer (`createSpillway(...)`) that trims, stores and answers `fetch_result`. */
  spillway: Spillway
  /** Fixed session id; by default each thread (`configurable.thread_id`) is its own session. */
  sessionId?: string
  /**
   * Without an explicit `sessionId` or a thread id, do not use the shared `'default'` session:
   * results are trimmed without a handle (nothing stored; the raw text is in `artifact`) and
   * `fetch_result` refuses. Off by default, with a one-time `console.warn` when `'default'` is
   * used. @default false
   */
  requireSession?: boolean
  /** Narrow the tools offered to the model on each call with `selectTools`. */
  select?: SelectOptions
  /** Tools whose results pass untouched. Core profiles already exempt memory/todo-like tools. @default [] */
  exempt?: readonly string[]
  /**
   * Keep the raw result in the trimmed ToolMessage's `artifact` (the pre-1.0 behaviour). The
   * message is part of the graph state, so any checkpointer then writes the whole result to its
   * database on every step. By default `artifact` holds only a {@link SpillArtifact} (handle id
   * and sizes); the full result is in the spillway store. A result that was trimmed but not
   * stored (no session, see `requireSession`) keeps its raw text there, the only copy. A tool's
   * own artifact (`responseFormat: 'content_and_artifact'`) is always kept. @default false
   */
  keepRawArtifact?: boolean
  /**
   * What an error a tool throws becomes. LangChain turns a tool's error into an error
   * `ToolMessage` for the model only when no `wrapToolCall` middleware is installed; with one, it
   * ends the run. `'message'` keeps the first behaviour with this middleware installed: the error
   * becomes the message LangChain gives without middleware (`Error: … Please fix your mistakes.`,
   * `status: 'error'`), trimmed and spilled like any result. `'throw'` lets it propagate (to an
   * outer `toolErrorMiddleware`, or to end the run). Interrupts and aborts always propagate. List
   * `toolRetryMiddleware` after this middleware so it retries before an error becomes a message.
   * @default 'message'
   */
  toolErrors?: 'message' | 'throw'
  /**
   * Cache-aware compaction of old spilled results in what each model call is sent (core
   * `planCompaction`; see the README). `true` takes the defaults; the window comes from
   * `contextWindow` or the chat model's `profile.maxInputTokens`. The graph state keeps the
   * excerpts: only the request to the model changes. @default off
   */
  compaction?: boolean | CompactionOptions
  /**
   * The model's context window in tokens, for each result's budget. By default it is learned from
   * the chat model of the call that asked for the tool (`profile.maxInputTokens`); unknown keeps the
   * spillway's budget. Either way a `maxChars` fixed on `createSpillway` wins.
   */
  contextWindow?: number
}

/** What a trimmed ToolMessage's `artifact` holds by default: the handle and the sizes, not the result. */
export interface SpillArtifact {
  spillway: {
    /** Blob id for `fetch_result`. */
    id: string
    /** Size of the full result. */
    original: Size
    /** Size of the excerpt in `content`. */
    kept: Size
  }
}

/** Sessions whose model window the middleware remembers (oldest forgotten first). */
const MAX_SESSIONS_REMEMBERED = 1_000

/** Defaults of {@link SelectOptions}. */
export const DEFAULT_SELECT_OPTIONS = Object.freeze({
  /** Tools selected per call. */
  k: 8,
})

/** LangGraph's control flow (interrupts, `Command` to a parent: `is_bubble_up`) and aborted runs: never turned into a message. */
function mustPropagate(err: unknown, runtime: unknown): boolean {
  const e = err as { is_bubble_up?: unknown; name?: unknown } | undefined
  if (e?.is_bubble_up === true || e?.name === 'GraphInterrupt' || e?.name === 'NodeInterrupt' || e?.name === 'AbortError') return true
  return (runtime as { signal?: AbortSignal } | undefined)?.signal?.aborted === true
}

/** The error `ToolMessage` LangChain's ToolNode gives the model when no middleware wraps tool calls (its `defaultHandleToolErrors`). */
function toolErrorMessage(err: unknown, call: { id?: string | undefined; name: string }): ToolMessage {
  // A ToolInvocationError (arguments that fail the tool's schema) carries its own message for the model.
  const content = ToolInvocationError.isInstance(err) ? err.message : `${String(err)}\n Please fix your mistakes.`
  return new ToolMessage({ content, tool_call_id: call.id ?? '', name: call.name, status: 'error' })
}

/**
 * LangChain agent middleware: every tool result is trimmed, and spilled with a handle when it
 * does not fit (the ToolMessage content becomes the excerpt; `artifact` gets the handle id and
 * sizes, or the raw result with `keepRawArtifact`, unless the tool set one); the `fetch_result`
 * tool is added; with `select`, each model call is
 * offered only the selected tools (sticky: tools already called stay offered; stable order).
 *
 * @example
 * ```ts
 * const spillway = createSpillway({ store: memoryStore() })
 * const agent = createAgent({ model, tools, middleware: [spillwayMiddleware({ spillway })] })
 * await agent.invoke({ messages }, { configurable: { thread_id: 'chat-1' } })
 * ```
 */
export function spillwayMiddleware(options: SpillwayMiddlewareOptions) {
  const { spillway, sessionId, requireSession, select, exempt = [], keepRawArtifact = false } = options
  const compaction = options.compaction === true ? {} : options.compaction === false ? undefined : options.compaction
  // One resolver for both paths, so the 'default' notice is given once per middleware.
  const sessionOf = sessionResolver({ ...(sessionId === undefined ? {} : { sessionId }), ...(requireSession === undefined ? {} : { requireSession }) })
  // The window of the model that last ran in each session: the call that asked for the tools.
  const windows = new Map<string, number>()
  const learnWindow = (session: string | undefined, model: unknown): void => {
    const window = contextWindowOf(model)
    if (session === undefined || window === undefined || windows.get(session) === window) return
    if (windows.size >= MAX_SESSIONS_REMEMBERED) windows.delete(windows.keys().next().value as string)
    windows.set(session, window)
  }
  return createMiddleware({
    name: 'SpillwayMiddleware',
    tools: [fetchResultTool(spillway, sessionOf)],
    wrapToolCall: async (request, handler) => {
      let message: Awaited<ReturnType<typeof handler>>
      try {
        message = await handler(request)
      } catch (err) {
        if (options.toolErrors === 'throw' || mustPropagate(err, request.runtime)) throw err
        message = toolErrorMessage(err, request.toolCall)
      }
      if (!ToolMessage.isInstance(message)) return message
      // The message names the tool that ran (the real one behind a bridge `tool_call`).
      const name = message.name ?? request.toolCall.name
      if (exempt.includes(name)) return message
      const raw = contentText(message.content)
      if (raw === undefined) return message
      try {
        const session = sessionOf(request.runtime)
        const window = options.contextWindow ?? (session === undefined ? undefined : windows.get(session))
        // The user's last message: its distinctive words raise the result's lines that hold them.
        const focus = Array.isArray(request.state?.messages) ? lastHumanText(request.state.messages) : ''
        const handled = await spillway.handle({
          tool: name,
          args: request.toolCall.args,
          result: raw,
          ...(window === undefined ? {} : { contextWindow: window }),
          ...(focus !== '' ? { focus } : {}),
          // No session (requireSession): core trims without storing when the id is not valid.
          sessionId: session ?? '',
          ...(request.toolCall.id === undefined ? {} : { toolCallId: request.toolCall.id }),
        })
        if (!handled.changed) return message
        // Only the handle and sizes by default: the checkpointer persists the message. Unstored
        // (no session) results keep the raw text, the only copy there is.
        const artifact = message.artifact !== undefined ? message.artifact : keepRawArtifact || !handled.handle ? raw : spillArtifact({ ...handled, handle: handled.handle })
        return withContent(message, handled.content, artifact)
      } catch {
        // Fail open: a store failure must not break the agent loop; the model gets the original.
        return message
      }
    },
    ...(select === undefined && compaction === undefined && options.contextWindow !== undefined
      ? {}
      : {
          wrapModelCall: async (request, handler) => {
            if (options.contextWindow === undefined) learnWindow(sessionOf(request.runtime), request.model)
            let tools = request.tools
            if (select !== undefined) {
              const { index, k = DEFAULT_SELECT_OPTIONS.k, pinned = [], mode, telemetry } = select
              const chosen = await selectTools({
                index,
                query: lastHumanText(request.messages),
                k,
                pinned,
                sticky: calledToolNames(request.messages).filter((n) => index.has(n)),
                ...(mode === undefined ? {} : { mode }),
                ...(telemetry === undefined ? {} : { telemetry }),
              })
              const keep = new Set(chosen)
              // Tools outside the index (fetch_result, other middleware's tools, server tools) stay.
              tools = request.tools.filter((t) => {
                const name = toolName(t)
                return name === undefined || !index.has(name) || keep.has(name)
              })
            }
            const messages = compaction === undefined ? request.messages : compactFor(request.messages, request.model, compaction)
            return handler({ ...request, tools, messages })
          },
        }),
  })
}

/** The messages one model call is sent; unchanged when the window is unknown or compaction fails (fail open). */
function compactFor(messages: BaseMessage[], model: unknown, options: CompactionOptions): BaseMessage[] {
  const { contextWindow, ...rest } = options
  const window = contextWindow ?? contextWindowOf(model)
  if (window === undefined) return messages
  try {
    return compactMessages(messages, window, rest).messages
  } catch {
    return messages
  }
}

/** The default `artifact` of a trimmed message: handle id and sizes (see {@link SpillArtifact}). */
function spillArtifact(handled: HandleResult & { handle: { id: string } }): SpillArtifact {
  const { original, kept } = handled.outcome
  return { spillway: { id: handled.handle.id, original, kept } }
}
