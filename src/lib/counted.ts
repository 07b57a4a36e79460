/** Plain wording shared by the reader site and the admin, in a module of its own so it is usable (and testable) without Payload. */

/** "1 view", "2 views", "1,234 views". */
export function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`
}
