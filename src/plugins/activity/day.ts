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

/**
 * The last answer per zone, by UTC minute. Every zone in use today is offset
 * from UTC by whole minutes, so a local day starts on a UTC minute and one
 * answer holds for the whole minute: formatting (about a microsecond) then
 * runs once a minute instead of on every counted view.
 */
const lastDay = new Map<string, { minute: number; day: string }>()

/** The calendar day (YYYY-MM-DD) of an instant in a time zone: the unit of the daily view series and last-active hashes. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  const minute = Math.floor(at.getTime() / 60_000)
  const last = lastDay.get(timeZone)
  if (last?.minute === minute) return last.day
  const day = formatterFor(timeZone).format(at)
  lastDay.set(timeZone, { minute, day })
  return day
}
