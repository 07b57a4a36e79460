'use client'
/**
 * The article's format (Markdown or rich text). Switching an article that
 * already has a body asks first, because saving converts the body into the
 * other format (the old body stays stored in its own field). Words from the
 * catalogs (src/lib/i18n), in the admin user's language.
 */
import {
  ConfirmationModal,
  FieldDescription,
  FieldError,
  FieldLabel,
  useDocumentInfo,
  useField,
  useForm,
  useFormFields,
  useModal,
  useOperation,
  useServerFunctions,
} from '@payloadcms/ui'
import type { SelectFieldClientComponent } from 'payload'
import { deepCopyObjectSimpleWithoutReactComponents } from 'payload/shared'
import React, { useEffect, useState } from 'react'

import { useAdminT } from '../../languages/admin/useAdminT'

type Format = 'markdown' | 'html'

const LABELS = { markdown: 'format.markdown', html: 'format.html' } as const
const MODAL_SLUG = 'confirm-format-switch'

function hasLexicalText(content: unknown): boolean {
  const root = (content as { root?: { children?: unknown[] } } | null)?.root
  return JSON.stringify(root?.children ?? []).includes('"text":"') || JSON.stringify(root?.children ?? []).includes('"type":"upload"')
}

// Longer than Payload's own 250 ms debounce, so its request normally answers first and this one is never sent.
const RECHECK_AFTER_MS = 750

/**
 * Keeps the body field on screen in step with the chosen format.
 *
 * Why: Payload evaluates `admin.condition` only on the server, during its
 * form-state round trip, and renders the rich-text editor there too. A round
 * trip that began before the format was chosen (the one the title's typing
 * starts, say) answers for the old format; merging that answer also records
 * the form as sent, so the new format is never sent and the rich-text editor
 * never appears (issue 10: the browser test failed about two runs in three on
 * a busy machine). When the form's latest answer still shows the other
 * format's body, this asks the server again with the current form.
 */
function useBodyFollowsFormat(format: Format) {
  const richTextShown = useFormFields(([fields]) => fields.content?.passesCondition !== false)
  const markdownShown = useFormFields(([fields]) => fields.markdown?.passesCondition !== false)
  const { getFields, dispatchFields } = useForm()
  const { getFormState } = useServerFunctions()
  const { id, collectionSlug, docPermissions, getDocPreferences } = useDocumentInfo()
  const operation = useOperation()
  const inStep = format === 'html' ? richTextShown && !markdownShown : markdownShown && !richTextShown

  useEffect(() => {
    if (inStep || !collectionSlug) return
    const controller = new AbortController()
    const recheck = async () => {
      const result = await getFormState({
        id,
        collectionSlug,
        docPermissions,
        docPreferences: await getDocPreferences(),
        formState: deepCopyObjectSimpleWithoutReactComponents(getFields(), { excludeFiles: true }),
        operation,
        schemaPath: collectionSlug,
        renderAllFields: false,
        skipValidation: true,
        signal: controller.signal,
      })
      if (result?.state && !controller.signal.aborted) {
        dispatchFields({ type: 'MERGE_SERVER_STATE', serverState: result.state, prevStateRef: { current: {} } })
      }
    }
    // An aborted or failed recheck changes nothing: Payload's next round trip still applies.
    const timer = setTimeout(() => void recheck().catch(() => {}), RECHECK_AFTER_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [inStep, id, collectionSlug, docPermissions, getDocPreferences, getFields, getFormState, dispatchFields, operation])
}

export const FormatField: SelectFieldClientComponent = ({ field, path }) => {
  const { value, setValue, showError, errorMessage } = useField<Format>({ path: path ?? field.name })
  const { id } = useDocumentInfo()
  const markdown = useFormFields(([fields]) => fields.markdown?.value) as string | undefined
  const content = useFormFields(([fields]) => fields.content?.value)
  const { openModal } = useModal()
  const [pending, setPending] = useState<Format | null>(null)
  const { t } = useAdminT()
  // The radios are server-rendered: until React hydrates this field, a click
  // only flips the native radio and never reaches the form. The attribute says
  // the field is live (browser tests wait for it before choosing a format).
  const [live, setLive] = useState(false)
  useEffect(() => setLive(true), [])

  const current: Format = value === 'html' ? 'html' : 'markdown'
  useBodyFollowsFormat(current)
  const hasBody = current === 'markdown' ? !!markdown?.trim() : hasLexicalText(content)

  const choose = (next: Format) => {
    if (next === current) return
    if (id && hasBody) {
      setPending(next)
      openModal(MODAL_SLUG)
    } else {
      setValue(next)
    }
  }

  return (
    <div className="field-type format-field" data-live={live ? 'true' : undefined}>
      <FieldLabel label={typeof field.label === 'string' ? field.label : t('format.label')} path={path} />
      <div className="format-field__options" role="radiogroup" aria-label={t('format.label')}>
        {(Object.keys(LABELS) as Format[]).map((format) => (
          <label key={format} className="format-field__option">
            <input type="radio" name={`${path}-format`} value={format} checked={current === format} onChange={() => choose(format)} />
            {t(LABELS[format])}
          </label>
        ))}
      </div>
      {/* A switch that would change the body is refused on save, naming what would change (conversionCheck.ts). */}
      <FieldError path={path} showError={showError} message={errorMessage} />
      <FieldDescription
        path={path}
        description={t('format.help')}
      />
      <ConfirmationModal
        modalSlug={MODAL_SLUG}
        heading={t('format.switchTo', { format: pending ? t(LABELS[pending]) : '' })}
        body={t('format.confirmBody')}
        confirmLabel={t('format.confirm')}
        onConfirm={() => {
          if (pending) setValue(pending)
          setPending(null)
        }}
        onCancel={() => setPending(null)}
      />
    </div>
  )
}
