import type { AnyObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra, RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  CompleteRequestSchema, CreateMessageRequestSchema, ElicitRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema, PingRequestSchema, PromptListChangedNotificationSchema,
  ReadResourceRequestSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ResultSchema, RootsListChangedNotificationSchema,
  SetLevelRequestSchema, SubscribeRequestSchema, ToolListChangedNotificationSchema, UnsubscribeRequestSchema,
  type ClientCapabilities, type Notification, type Request, type Result, type ServerNotification, type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'

/** A request or notification schema of the SDK (zod), keyed by its `method` literal. */
type MethodSchema = AnyObjectSchema

/**
 * Where a host request goes. `one`: a single upstream (by routing on a name or URI); `all`: every
 * upstream that has the capability, answers merged by the proxy (lists) or the first kept (empty results).
 */
export type Route = 'by-prompt' | 'by-uri' | 'by-completion-ref' | 'all' | 'list-prompts' | 'list-resources' | 'list-templates'

/**
 * The host -> upstream table: one entry per method the proxy forwards, keyed by the SDK's own
 * request schema. `tools/list` and `tools/call` are not here: they are the two the proxy rewrites.
 */
export const HOST_REQUESTS: readonly { schema: MethodSchema; capability: 'prompts' | 'resources' | 'logging' | 'completions' | undefined; route: Route }[] = [
  { schema: PingRequestSchema, capability: undefined, route: 'all' },
  { schema: CompleteRequestSchema, capability: 'completions', route: 'by-completion-ref' },
  { schema: SetLevelRequestSchema, capability: 'logging', route: 'all' },
  { schema: ListPromptsRequestSchema, capability: 'prompts', route: 'list-prompts' },
  { schema: GetPromptRequestSchema, capability: 'prompts', route: 'by-prompt' },
  { schema: ListResourcesRequestSchema, capability: 'resources', route: 'list-resources' },
  { schema: ListResourceTemplatesRequestSchema, capability: 'resources', route: 'list-templates' },
  { schema: ReadResourceRequestSchema, capability: 'resources', route: 'by-uri' },
  { schema: SubscribeRequestSchema, capability: 'resources', route: 'by-uri' },
  { schema: UnsubscribeRequestSchema, capability: 'resources', route: 'by-uri' },
]

/** Upstream -> host notifications forwarded as they are (tools/list_changed also re-indexes, see the proxy). */
export const UPSTREAM_NOTIFICATIONS: readonly MethodSchema[] = [
  ToolListChangedNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  LoggingMessageNotificationSchema,
]

/** Upstream -> host requests, each forwarded only when the host declared the capability. */
export const UPSTREAM_REQUESTS: readonly { schema: MethodSchema; capability: 'sampling' | 'elicitation' | 'roots' }[] = [
  { schema: CreateMessageRequestSchema, capability: 'sampling' },
  { schema: ElicitRequestSchema, capability: 'elicitation' },
  { schema: ListRootsRequestSchema, capability: 'roots' },
]

/** Host -> upstream notifications forwarded as they are. */
export const HOST_NOTIFICATIONS: readonly MethodSchema[] = [RootsListChangedNotificationSchema]

/** The client capabilities the proxy can forward: those of the host that the table above serves. */
export function forwardableClientCapabilities(host: ClientCapabilities | undefined): ClientCapabilities {
  const out: ClientCapabilities = {}
  for (const { capability } of UPSTREAM_REQUESTS) if (host?.[capability] !== undefined) (out as Record<string, unknown>)[capability] = host[capability]
  return out
}

/**
 * Request options for forwarding one host request: its cancellation, time-out and progress
 * (re-labelled with the host's token). Await `flushed()` before answering, so the host sees every
 * progress notification before the result (it drops progress that comes after).
 */
export function forwardOptions(request: Request, extra: RequestHandlerExtra<ServerRequest, ServerNotification>, timeout: number): RequestOptions & { flushed(): Promise<void> } {
  const token = request.params?._meta?.progressToken
  let chain = Promise.resolve()
  return {
    signal: extra.signal,
    timeout,
    resetTimeoutOnProgress: true,
    flushed: () => chain,
    ...(token !== undefined
      ? {
          onprogress: (p) => {
            chain = chain.then(() => extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } })).catch(() => undefined)
          },
        }
      : {}),
  }
}

/** The request as sent upstream: the host's progress token is dropped (the SDK sets its own when it forwards progress). */
export function upstreamRequest<R extends Request>(request: R): R {
  const meta = request.params?._meta
  if (meta?.progressToken === undefined) return request
  const { progressToken: _drop, ...rest } = meta
  return { ...request, params: { ...request.params, _meta: rest } } as R
}

/** Installs the upstream -> host forwarding on a fresh upstream client (notifications and server-to-client requests). */
export function installUpstreamForwarding(client: Client, server: Server, host: ClientCapabilities | undefined, onToolsChanged: () => void): void {
  for (const schema of UPSTREAM_NOTIFICATIONS) {
    client.setNotificationHandler(schema, async (n) => {
      const note = n as Notification
      if (note.method === 'notifications/tools/list_changed') onToolsChanged()
      await server.notification(note as ServerNotification).catch(() => undefined)
    })
  }
  for (const { schema, capability } of UPSTREAM_REQUESTS) {
    if (host?.[capability] === undefined) continue
    client.setRequestHandler(schema, (req, extra) => server.request(req as ServerRequest, ResultSchema, { signal: extra.signal }) as Promise<Result> as never)
  }
}
