/** The calendar day (YYYY-MM-DD) of an instant in a time zone: the unit of the daily view series and last-active hashes. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}
