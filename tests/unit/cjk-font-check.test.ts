/**
 * The start-up check for a CJK font (issue 26 §5) asks fontconfig, which the
 * share-card renderer uses, instead of comparing drawn pixels: without a font,
 * Pango draws each character as a box holding its code, and two such boxes
 * differ, so the old pixel check said "installed" on a machine with no CJK font.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { cjkFontInstalled } from '../../src/plugins/content/shareCard'

/** A fontconfig configuration that knows no font directory at all: a machine without fonts. */
function emptyFontconfig(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-fontconfig-'))
  const file = path.join(dir, 'fonts.conf')
  writeFileSync(file, `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><cachedir>${dir}/cache</cachedir></fontconfig>\n`)
  return file
}

describe('cjkFontInstalled', () => {
  it('finds the CJK font scripts/ensure-fonts.sh installs (CI runs it before the tests)', async () => {
    expect(await cjkFontInstalled()).toBe(true)
  })

  it('reports its absence on a machine whose fontconfig knows no CJK font', async () => {
    expect(await cjkFontInstalled({ env: { ...process.env, FONTCONFIG_FILE: emptyFontconfig() } })).toBe(false)
  })

  it('reports its absence when fontconfig itself is missing', async () => {
    expect(await cjkFontInstalled({ env: { ...process.env, PATH: mkdtempSync(path.join(tmpdir(), 'inkwell-nopath-')) } })).toBe(false)
  })
})
