'use client'
/**
 * "Scheduled for …" beside an article whose status is published and whose
 * publish time is still ahead: the public sees it only from that time on
 * (the Articles read access), and it appears without being saved again.
 * The edit view shows it in the sidebar (a UI field, reading the form as it
 * is being edited); the list shows it in the status column (a cell).
 */
import { useFormFields } from '@payloadcms/ui'
import type { DefaultCellComponentProps } from 'payload'
import React from 'react'

function scheduledFor(status: unknown, publishedAt: unknown): Date | null {
  if (status !== 'published' || typeof publishedAt !== 'string') return null
  const at = new Date(publishedAt)
  return at.getTime() > Date.now() ? at : null
}

const format = (at: Date) => at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function ScheduledNotice() {
  const status = useFormFields(([fields]) => fields.status?.value)
  const publishedAt = useFormFields(([fields]) => fields.publishedAt?.value)
  const at = scheduledFor(status, publishedAt)
  if (!at) return null
  return (
    <p className="field-description" role="status" data-scheduled-for={at.toISOString()}>
      <strong>Scheduled for {format(at)}</strong> — readers see this article from then on.
    </p>
  )
}

export function StatusCell({ cellData, rowData }: DefaultCellComponentProps) {
  const at = scheduledFor(cellData, (rowData as { publishedAt?: unknown }).publishedAt)
  if (at) return <span data-scheduled-for={at.toISOString()}>Scheduled for {format(at)}</span>
  return <span>{cellData === 'published' ? 'Published' : cellData === 'draft' ? 'Draft' : String(cellData ?? '')}</span>
}
