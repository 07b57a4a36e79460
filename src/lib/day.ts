/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs tens of
 * microseconds and ICU memory that V8 reclaims late, and dayIn runs on every
 * counted article view.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    // en-CA formats as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone: the unit of the daily view series and last-active hashes. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  return formatterFor(timeZone).format(at)
}
