import type { JSONSchema7, LanguageModel, ModelMessage, Tool, ToolSet } from 'ai'
import { jsonSchema } from 'ai'
import type { FetchRequest, Spillway } from '@spillway/core'
import { FETCH_TOOL_NAME } from '@spillway/core'
import { contextWindowOf } from './context-window.js'
import { lastUserText } from './prepare-step.js'

/** What `toModelOutput` returns, in the shape shared by ai 6 and ai 7. */
type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>

/** Arguments of the `fetch_result` tool, as the model sends them (validated by core). */
export type FetchResultInput = FetchRequest

/** Options of {@link spillTools}. */
export interface SpillToolsOptions {
  /** The spill layer (`createSpillway(...)`) that trims, stores and answers `fetch_result`. */
  spillway: Spillway
  /** Conversation the results belong to; `fetch_result` reads only this session's blobs. */
  sessionId: string
  /**
   * Tools whose results reach the model untouched (no `toModelOutput` wrapper at all).
   * Core profiles already exempt memory/todo-like tools; this is for your own.
   * @default []
   */
  exempt?: readonly string[]
  /**
   * Add the `fetch_result` tool to the returned record.
   * @default true
   */
  addFetchTool?: boolean
  /**
   * The model the agent runs (an AI SDK model or its id): each result's budget follows its context
   * window ({@link contextWindowOf}; `budgetFromContextWindow` in core), unless `createSpillway`
   * was given a fixed `maxChars`. Unknown ids keep the spillway's own budget.
   */
  model?: LanguageModel | string
  /** The model's context window in tokens, when the id table does not know it (wins over `model`). */
  contextWindow?: number
  /** Extra or overriding entries for the model-id table used with `model`. */
  contextWindows?: Readonly<Record<string, number>>
}

/** The record {@link spillTools} returns: your tools plus `fetch_result`. */
export type SpilledTools<TOOLS extends ToolSet> = TOOLS & { fetch_result: Tool<FetchResultInput, string> }

/**
 * Wraps an AI SDK tools record so every result the model sees is trimmed, and spilled to the
 * store with a handle when it does not fit, and adds the `fetch_result` tool.
 *
 * Works through `toModelOutput` (awaited by both ai 6 and ai 7), so `steps[i].toolResults[j].output`
 * keeps the raw output while the prompt carries the excerpt. A tool's own `toModelOutput` runs
 * first; its `text` / `json` output is then trimmed, other output types (media) pass unchanged.
 * An error thrown by `execute` gets the same budget and stays an error (see `spillErrors`).
 *
 * @example
 * ```ts
 * const spillway = createSpillway({ store: memoryStore() })
 * const tools = spillTools({ run_build, read_file }, { spillway, sessionId: chatId })
 * const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(8) })
 * ```
 */
export function spillTools<TOOLS extends ToolSet>(tools: TOOLS, options: SpillToolsOptions): SpilledTools<TOOLS> {
  const { spillway, sessionId, exempt = [], addFetchTool = true } = options
  const window = options.contextWindow ?? contextWindowOf(options.model, options.contextWindows)
  // Every result's call carries the model's window; core lets a fixed `maxChars` win.
  const handle: Handle = (input) => spillway.handle(window === undefined ? input : { contextWindow: window, ...input })
  const wrapped: Record<string, Tool> = {}
  for (const [name, tool] of Object.entries(tools) as [string, Tool][]) {
    // Provider-executed tools produce provider-shaped results the SDK must pass back verbatim.
    const providerTool = tool.type === 'provider' || (tool.type as string) === 'provider-defined'
    wrapped[name] = exempt.includes(name) || providerTool || name === FETCH_TOOL_NAME ? tool : withSpill(name, tool, handle, sessionId)
  }
  if (addFetchTool) wrapped[FETCH_TOOL_NAME] = fetchResultTool(spillway, sessionId)
  return wrapped as SpilledTools<TOOLS>
}

/** `spillway.handle`, with the adapter's per-call settings. */
type Handle = Spillway['handle']

/**
 * The `fetch_result` tool alone, for a session: reads slices (stat / range / grep / full) of the
 * results spilled in that session. Never throws: refusals come back as text for the model.
 */
export function fetchResultTool(spillway: Spillway, sessionId: string): Tool<FetchResultInput, string> {
  const { description, parameters, execute } = spillway.fetchTool
  return {
    description,
    inputSchema: jsonSchema<FetchResultInput>(parameters as JSONSchema7),
    execute: (input: FetchResultInput) => execute(input, { sessionId }),
  }
}

function withSpill(name: string, tool: Tool, handle: Handle, sessionId: string): Tool {
  const own = tool.toModelOutput
  const modelOutput = async (options: { toolCallId: string; input: unknown; output: unknown }, focus?: string): Promise<ModelOutput> => {
    const base: ModelOutput = own ? await own(options as Parameters<typeof own>[0]) : defaultModelOutput(options.output)
    try {
      // Content parts (what @ai-sdk/mcp's tools give): the text parts, joined, are the result;
      // the other parts (images, files) stay, after the text.
      const parts = base.type === 'content' && Array.isArray(base.value) ? base.value : undefined
      const texts = parts?.filter((p): p is { type: 'text'; text: string } => p.type === 'text' && typeof (p as { text?: unknown }).text === 'string')
      const text = base.type === 'text' ? base.value : base.type === 'json' ? JSON.stringify(base.value) : texts !== undefined && texts.length > 0 ? texts.map((p) => p.text).join('\n') : undefined
      if (text === undefined) return base
      const handled = await handle({ tool: name, args: options.input, result: text, sessionId, toolCallId: options.toolCallId, ...(focus ? { focus } : {}) })
      if (!handled.changed) return base
      if (parts === undefined) return { type: 'text', value: handled.content }
      return { type: 'content', value: [{ type: 'text', text: handled.content }, ...parts.filter((p) => !texts!.includes(p as { type: 'text'; text: string }))] } as ModelOutput
    } catch {
      // Fail open: an unreachable store must not break the agent loop; the model gets the original.
      return base
    }
  }
  // The spill runs at the end of `execute`, inside the SDK's tool call (its `ai.toolCall` /
  // `execute_tool` span is the active one, so spillway's spans nest under it); `toModelOutput`
  // then hands over that result. The raw output still goes to the steps. Outputs it has not seen
  // (streaming tools, a tool run elsewhere) are spilled in `toModelOutput` itself.
  const early = new Map<string, { output: unknown; result: ModelOutput }>()
  const toModelOutput = async (options: { toolCallId: string; input: unknown; output: unknown }): Promise<ModelOutput> => {
    const done = early.get(options.toolCallId)
    early.delete(options.toolCallId)
    return done !== undefined && done.output === options.output ? done.result : modelOutput(options)
  }
  const execute = tool.execute as ((input: unknown, options: ExecuteOptions) => unknown) | undefined
  if (execute === undefined) return { ...tool, toModelOutput } as Tool
  const guarded = spillErrors(name, execute, handle, sessionId)
  const spillingExecute = (input: unknown, options: ExecuteOptions): unknown => {
    const out = guarded(input, options)
    if (isAsyncIterable(out)) return out
    return Promise.resolve(out).then(async (output) => {
      const result = await modelOutput({ toolCallId: options.toolCallId, input, output }, focusOf(options))
      if (early.size >= MAX_EARLY_RESULTS) early.delete(early.keys().next().value as string)
      early.set(options.toolCallId, { output, result })
      return output
    })
  }
  return { ...tool, toModelOutput, execute: spillingExecute } as Tool
}

/** Spilled results waiting for their `toModelOutput` call, per wrapped tool (oldest dropped first). */
const MAX_EARLY_RESULTS = 256

/** The part of the SDK's tool execution options the adapter reads (`messages`: the prompt of the step that called the tool). */
type ExecuteOptions = { toolCallId: string; messages?: readonly ModelMessage[] }

/** The user's last message, which raises the result's lines that name its distinctive words (core's `focus`). */
function focusOf(options: ExecuteOptions): string | undefined {
  return Array.isArray(options?.messages) ? lastUserText(options.messages) || undefined : undefined
}

/**
 * The SDK sends a thrown error to the model as `error-text` with the error's message, and never
 * calls `toModelOutput` for it (`createToolModelOutput` returns before, in ai 6 and ai 7). So
 * errors are caught here, around `execute`: a message over budget goes through
 * `spillway.handle` like a result (trimmed, spilled, handle block) and is thrown again as an
 * `Error` with that text (same name), so the SDK still sends an error (`error-text`) within the
 * budget. The original error is its `cause` (the step's `tool-error` part keeps it). Errors
 * within budget, and any failure of `handle`, rethrow the original error as it is.
 */
function spillErrors(name: string, execute: (input: unknown, options: ExecuteOptions) => unknown, handle: Handle, sessionId: string) {
  const spilled = async (error: unknown, input: unknown, options: ExecuteOptions): Promise<unknown> => {
    try {
      const focus = focusOf(options)
      const handled = await handle({ tool: name, args: input, result: errorText(error), sessionId, toolCallId: options.toolCallId, ...(focus ? { focus } : {}) })
      if (!handled.changed) return error
      return spilledError(handled.content, error)
    } catch {
      return error // fail open: the original error, as the SDK would have sent it
    }
  }
  return (input: unknown, options: ExecuteOptions): unknown => {
    let out: unknown
    try {
      out = execute(input, options)
    } catch (error) {
      return spilled(error, input, options).then((e) => Promise.reject(e))
    }
    if (isAsyncIterable(out)) return guardIterable(out, (error) => spilled(error, input, options))
    return Promise.resolve(out).catch(async (error: unknown) => Promise.reject(await spilled(error, input, options)))
  }
}

/** Streaming tools (`execute` returning an async iterable): an error thrown mid-stream is handled the same way. */
async function* guardIterable(source: AsyncIterable<unknown>, spilled: (error: unknown) => Promise<unknown>): AsyncGenerator<unknown> {
  try {
    yield* source
  } catch (error) {
    throw await spilled(error)
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value != null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
}

/**
 * The text of a thrown value, as ai 7's `getErrorMessage` makes it (`error.toString()`, so the
 * error's name stays visible); ai 6 sends `error.message` alone, which only matters for errors
 * within budget, and those are rethrown untouched.
 */
function errorText(error: unknown): string {
  if (error == null) return 'unknown error'
  if (typeof error === 'string') return error
  if (error instanceof Error) return String(error)
  return JSON.stringify(error)
}

/** An `Error` that both majors send as exactly `text` (ai 6 reads `message`, ai 7 `toString()`). */
function spilledError(text: string, cause: unknown): Error {
  const error = new Error(text, { cause })
  if (cause instanceof Error) error.name = cause.name
  Object.defineProperty(error, 'toString', { value: () => text })
  return error
}

/** What the SDK sends when a tool has no `toModelOutput` (same rule as its `createToolModelOutput`). */
function defaultModelOutput(output: unknown): ModelOutput {
  if (typeof output === 'string') return { type: 'text', value: output }
  return { type: 'json', value: (output === undefined ? null : output) as never }
}
