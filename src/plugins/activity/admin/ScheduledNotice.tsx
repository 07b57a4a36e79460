'use client'
/**
 * "Scheduled for …" beside an article whose status is published and whose
 * publish time is still ahead: the public sees it only from that time on
 * (the Articles read access), and it appears without being saved again.
 * The edit view shows it in the sidebar (a UI field, reading the form as it
 * is being edited); the list shows it in the status column (a cell).
 * Words and dates in the admin user's language (the catalogs of src/lib/i18n).
 */
import { useFormFields } from '@payloadcms/ui'
import type { DefaultCellComponentProps } from 'payload'
import React from 'react'

import type { Language } from '../../../lib/i18n'
import { rich } from '../../languages/admin/rich'
import { useAdminT } from '../../languages/admin/useAdminT'

function scheduledFor(status: unknown, publishedAt: unknown): Date | null {
  if (status !== 'published' || typeof publishedAt !== 'string') return null
  const at = new Date(publishedAt)
  return at.getTime() > Date.now() ? at : null
}

const format = (lang: Language, at: Date) => at.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' })

export function ScheduledNotice() {
  const status = useFormFields(([fields]) => fields.status?.value)
  const publishedAt = useFormFields(([fields]) => fields.publishedAt?.value)
  const { t, lang } = useAdminT()
  const at = scheduledFor(status, publishedAt)
  if (!at) return null
  return (
    <p className="field-description" role="status" data-scheduled-for={at.toISOString()}>
      {rich(t('schedule.readersFromThen'), { scheduled: <strong>{t('schedule.scheduledFor', { when: format(lang, at) })}</strong> })}
    </p>
  )
}

export function StatusCell({ cellData, rowData }: DefaultCellComponentProps) {
  const { t, lang } = useAdminT()
  const at = scheduledFor(cellData, (rowData as { publishedAt?: unknown }).publishedAt)
  if (at) return <span data-scheduled-for={at.toISOString()}>{t('schedule.scheduledFor', { when: format(lang, at) })}</span>
  return <span>{cellData === 'published' ? t('schedule.published') : cellData === 'draft' ? t('schedule.draft') : String(cellData ?? '')}</span>
}
