/** The id behind a relationship value, whether it arrived populated ({ id, … }) or as a bare id. */
export function relationId(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value && typeof value === 'object' && 'id' in value) {
    const id = Number((value as { id: unknown }).id)
    return Number.isFinite(id) ? id : undefined
  }
  return undefined
}
