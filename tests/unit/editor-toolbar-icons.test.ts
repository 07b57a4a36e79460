/**
 * The Markdown editor's toolbar needs no font for its pictures (issue 26):
 * 🔗 and 🖼 showed as empty boxes without an emoji font. Its buttons show
 * ASCII text or inline SVG.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

import React from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import * as icons from '../../src/plugins/content/admin/MarkdownEditor/icons'

const EDITOR = path.resolve(import.meta.dirname, '../../src/plugins/content/admin/MarkdownEditor/index.tsx')

describe('the Markdown toolbar', () => {
  it('labels every tool with ASCII text or an icon component, never a character that needs a font', () => {
    const calls = readFileSync(EDITOR, 'utf8').match(/\{tool\([^\n]*\)\}/g) ?? []
    expect(calls.length).toBeGreaterThan(10)
    for (const call of calls) expect(call, call).toMatch(/^[\x20-\x7e]*$/)
  })

  it('draws its icons as SVG with no text', () => {
    for (const [name, Icon] of Object.entries(icons)) {
      const markup = renderToStaticMarkup(React.createElement(Icon as React.FC))
      expect(markup, name).toMatch(/^<svg[^>]*aria-hidden="true"/)
      expect(markup.replace(/<[^>]*>/g, ''), name).toBe('')
    }
  })
})
