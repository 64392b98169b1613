export { runCli, VERSION } from './cli.js'
export { runSidecar, SIDECAR_OPS, type SidecarErrorCode, type SidecarOptions, type SidecarReply } from './sidecar.js'
export { defaultStoreDir } from './dir.js'
export { EXIT, type CliIO } from './io.js'
