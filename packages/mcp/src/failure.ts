/**
 * An error for the host: the SDK's server sends its `code` and `message` as the JSON-RPC error.
 * Not an `McpError`, whose message carries an `MCP error <code>: ` prefix that the host's SDK
 * client would then add a second time.
 */
export function mcpFailure(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) })
}
