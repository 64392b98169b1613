/**
 * `o` without its `undefined` fields, so that spreading it over a `DEFAULT_*` object keeps the
 * defaults (`{ ...DEFAULTS, ...definedOnly(options) }`) and it fits `exactOptionalPropertyTypes`.
 */
export function definedOnly<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> }
}
