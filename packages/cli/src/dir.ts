import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Default store folder: `$SPILLWAY_DIR`, else the user's cache folder
 * (`$XDG_CACHE_HOME/spillway` or `~/.cache/spillway`; `~/Library/Caches/spillway` on macOS;
 * `%LOCALAPPDATA%\spillway` on Windows).
 */
export function defaultStoreDir(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string {
  if (env['SPILLWAY_DIR']) return env['SPILLWAY_DIR']
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'spillway')
  if (platform === 'win32') return join(env['LOCALAPPDATA'] ?? join(homedir(), 'AppData', 'Local'), 'spillway')
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'spillway')
}
