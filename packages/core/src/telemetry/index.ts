export { METRICS, instruments, type Attributes, type AttributeValue, type Instruments, type MeterLike, type SpanLike, type Telemetry, type TracerLike } from './telemetry.js'
