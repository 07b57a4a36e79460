'use client'
import { useEffect, useState } from 'react'

import type { Translate } from '../../../../lib/i18n'

const DEBOUNCE_MS = 250

/**
 * The body rendered by the server exactly as the public page will show it,
 * refreshed shortly after typing stops while the preview is visible.
 */
export function usePreview(markdown: string, visible: boolean, apiRoute: string, t: Translate) {
  const [state, setState] = useState({ html: '', error: null as string | null, loading: false })

  useEffect(() => {
    if (!visible) return
    const controller = new AbortController()
    setState((s) => ({ ...s, loading: true }))
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`${apiRoute}/articles/preview`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'include',
          body: JSON.stringify({ markdown }),
          signal: controller.signal,
        })
        const body = (await response.json()) as { html?: string; errors?: { message: string }[] }
        if (!response.ok) throw new Error(body.errors?.[0]?.message ?? t('editor.previewFailed', { status: String(response.status) }))
        setState({ html: body.html ?? '', error: null, loading: false })
      } catch (error) {
        if (controller.signal.aborted) return
        setState({ html: '', error: error instanceof Error ? error.message : String(error), loading: false })
      }
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [markdown, visible, apiRoute, t])

  return state
}
