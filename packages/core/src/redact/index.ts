export { redactSecrets, type RedactOptions, type Redaction } from './redact.js'
export { DEFAULT_SECRET_RULES, isPlaceholder, type SecretRule } from './rules.js'
