import { describe, expect, it } from 'vitest'

import { dayIn } from '../../src/lib/day'

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
})
