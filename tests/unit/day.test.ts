import { describe, expect, it } from 'vitest'

import { dayIn } from '../../src/plugins/activity/day'

describe('dayIn', () => {
  it('names the calendar day of an instant in each time zone, however zones are interleaved', () => {
    const at = new Date('2026-03-08T23:30:00Z')
    // Formatters are kept per zone: asking in turn must not mix them up.
    for (let i = 0; i < 3; i++) {
      expect(dayIn('UTC', at)).toBe('2026-03-08')
      expect(dayIn('Asia/Shanghai', at)).toBe('2026-03-09')
      expect(dayIn('America/Los_Angeles', at)).toBe('2026-03-08')
      expect(dayIn('Pacific/Kiritimati', at)).toBe('2026-03-09')
    }
  })

  it('turns the day over at local midnight, to the minute, in zones with half- and quarter-hour offsets', () => {
    // Asia/Kathmandu is UTC+5:45, Asia/Kolkata UTC+5:30: local midnight falls inside a UTC hour.
    const cases: [string, string, string, string][] = [
      ['Asia/Kathmandu', '2026-11-24T18:14:59.999Z', '2026-11-24', '2026-11-25'],
      ['Asia/Kolkata', '2026-11-24T18:29:59.999Z', '2026-11-24', '2026-11-25'],
      ['UTC', '2026-11-24T23:59:59.999Z', '2026-11-24', '2026-11-25'],
    ]
    for (const [zone, lastMs, before, after] of cases) {
      const last = new Date(lastMs)
      // The same minute asked twice (the remembered answer), then the next millisecond.
      expect(dayIn(zone, new Date(last.getTime() - 30_000))).toBe(before)
      expect(dayIn(zone, last)).toBe(before)
      expect(dayIn(zone, new Date(last.getTime() + 1))).toBe(after)
      expect(dayIn(zone, last)).toBe(before)
    }
  })
})
