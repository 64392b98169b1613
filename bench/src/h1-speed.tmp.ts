import { runSpeed } from './suites/speed.js'
const rows = await runSpeed([10], () => 5, (m) => console.error(m))
for (const r of rows) console.log(r.variant.padEnd(30), r.mb, r.medianMs.toFixed(1).padStart(8), 'p95', r.p95Ms.toFixed(1).padStart(8), 'xscan', r.vsNewlineScan.toFixed(1).padStart(6), r.vsV8 !== undefined ? `xV8 ${r.vsV8.toFixed(2)}` : '', 'fail', r.failures)
