'use client'
import type { EditorView } from '@codemirror/view'
import { useEffect, type RefObject } from 'react'

function ratio(el: HTMLElement): number {
  const range = el.scrollHeight - el.clientHeight
  return range > 0 ? el.scrollTop / range : 0
}

function scrollToRatio(el: HTMLElement, r: number): void {
  el.scrollTop = r * (el.scrollHeight - el.clientHeight)
}

/** In split screen, scrolling either side scrolls the other to the same relative place. */
export function useScrollSync(
  viewRef: RefObject<EditorView | null>,
  previewRef: RefObject<HTMLElement | null>,
  enabled: boolean,
) {
  useEffect(() => {
    const source = viewRef.current?.scrollDOM
    const preview = previewRef.current
    if (!enabled || !source || !preview) return
    // The side being scrolled by the user leads; the echo from the other side is ignored.
    let leader: HTMLElement | null = null
    let release = 0
    const follow = (from: HTMLElement, to: HTMLElement) => () => {
      if (leader && leader !== from) return
      leader = from
      scrollToRatio(to, ratio(from))
      cancelAnimationFrame(release)
      release = requestAnimationFrame(() => (leader = null))
    }
    const onSource = follow(source, preview)
    const onPreview = follow(preview, source)
    source.addEventListener('scroll', onSource, { passive: true })
    preview.addEventListener('scroll', onPreview, { passive: true })
    return () => {
      source.removeEventListener('scroll', onSource)
      preview.removeEventListener('scroll', onPreview)
      cancelAnimationFrame(release)
    }
  }, [viewRef, previewRef, enabled])
}
