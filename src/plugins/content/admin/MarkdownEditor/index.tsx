'use client'
/**
 * The Markdown body editor: CodeMirror 6 with Markdown highlighting (and the
 * languages of fenced code), a toolbar and shortcuts, image upload by
 * drag-and-drop, paste or file picker, and a preview rendered by the server's
 * own renderer (POST /api/articles/preview) — alone, full-screen, or side by
 * side with scroll sync. Its words are the catalogs' (src/lib/i18n), in the
 * admin user's language.
 */
import { markdown, markdownLanguage } from '@codemirror/lang-markdown'
import { languages } from '@codemirror/language-data'
import { Prec } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { FieldDescription, FieldError, FieldLabel, useConfig, useField } from '@payloadcms/ui'
import CodeMirror from '@uiw/react-codemirror'
import type { TextareaFieldClientComponent } from 'payload'
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react'

import { useAdminT } from '../../../languages/admin/useAdminT'
import * as commands from './commands'
import { ImageIcon, LinkIcon, ListIcon, QuoteIcon, TableIcon } from './icons'
import { IMAGE_TYPES, uploadImage } from './uploadImage'
import { usePreview } from './usePreview'
import { useScrollSync } from './useScrollSync'

type Mode = 'write' | 'preview' | 'split'

let uploadCounter = 0

function droppedFiles(list: FileList | null | undefined): File[] {
  // Every file, images or not: a wrong one gets a readable refusal instead of silence.
  return [...(list ?? [])]
}

export function MarkdownEditor({
  value,
  onChange,
  apiRoute,
  label,
}: {
  value: string
  onChange: (value: string) => void
  apiRoute: string
  label?: React.ReactNode
}) {
  const viewRef = useRef<EditorView | null>(null)
  const previewRef = useRef<HTMLDivElement | null>(null)
  const fileInputRef = useRef<HTMLInputElement | null>(null)
  const [mode, setMode] = useState<Mode>('write')
  const [fullScreen, setFullScreen] = useState(false)
  const [uploads, setUploads] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const { t } = useAdminT()
  const preview = usePreview(value, mode !== 'write', apiRoute, t)
  useScrollSync(viewRef, previewRef, mode === 'split')

  const upload = useCallback(
    async (files: File[], at?: number) => {
      const view = viewRef.current
      if (!view || !files.length) return
      setError(null)
      for (const file of files) {
        const placeholder = `![${t('editor.uploadingPlaceholder', { name: file.name || 'image' })} #${++uploadCounter}]()`
        commands.insertAt(view, placeholder + '\n', at)
        at = undefined
        setUploads((n) => n + 1)
        try {
          const { url, alt } = await uploadImage(file, apiRoute, t)
          commands.replaceText(view, placeholder, `![${alt}](${url})`)
        } catch (e) {
          commands.replaceText(view, placeholder + '\n', '')
          setError(e instanceof Error ? e.message : String(e))
        } finally {
          setUploads((n) => n - 1)
        }
      }
    },
    [apiRoute, t],
  )

  const togglePreview = useCallback(() => setMode((m) => (m === 'preview' ? 'write' : 'preview')), [])
  const toggleSplit = useCallback(() => setMode((m) => (m === 'split' ? 'write' : 'split')), [])
  const toggleFullScreen = useCallback(() => setFullScreen((f) => !f), [])

  const extensions = useMemo(
    () => [
      markdown({ base: markdownLanguage, codeLanguages: languages }),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': t('editor.body') }),
      Prec.high(
        keymap.of([
          { key: 'Mod-b', run: commands.bold },
          { key: 'Mod-i', run: commands.italic },
          { key: 'Mod-k', run: commands.link },
          { key: 'Mod-e', run: commands.inlineCode },
          { key: 'Mod-Alt-1', run: commands.heading(1) },
          { key: 'Mod-Alt-2', run: commands.heading(2) },
          { key: 'Mod-Alt-3', run: commands.heading(3) },
          { key: 'Mod-Shift-.', run: commands.quote },
          { key: 'Mod-Shift-8', run: commands.bulletList },
          { key: 'Mod-Shift-7', run: commands.numberedList },
          { key: 'Mod-Alt-c', run: commands.codeBlock },
          { key: 'Mod-Alt-p', run: () => (togglePreview(), true) },
          { key: 'Mod-Alt-s', run: () => (toggleSplit(), true) },
          { key: 'F11', run: () => (toggleFullScreen(), true) },
          { key: 'Mod-Shift-f', run: () => (toggleFullScreen(), true) },
          { key: 'Escape', run: () => (setFullScreen(false), false) },
        ]),
      ),
      EditorView.domEventHandlers({
        drop(event, view) {
          const files = droppedFiles(event.dataTransfer?.files)
          if (!files.length) return false
          event.preventDefault()
          const at = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head
          void upload(files, at)
          return true
        },
        paste(event) {
          const files = droppedFiles(event.clipboardData?.files)
          if (!files.length) return false
          event.preventDefault()
          void upload(files)
          return true
        },
      }),
    ],
    [upload, togglePreview, toggleSplit, toggleFullScreen, t],
  )

  useEffect(() => {
    if (!fullScreen) return
    const previous = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => void (document.body.style.overflow = previous)
  }, [fullScreen])

  const run = (command: (view: EditorView) => boolean) => () => {
    if (viewRef.current) command(viewRef.current)
  }
  const tool = (title: string, shortcut: string, onClick: () => void, text: React.ReactNode, pressed?: boolean) => (
    <button
      type="button"
      className="markdown-editor__tool"
      title={shortcut ? t('editor.withShortcut', { title, shortcut }) : title}
      aria-label={title}
      aria-pressed={pressed}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
    >
      {text}
    </button>
  )

  return (
    <div
      className={`markdown-editor markdown-editor--${mode}${fullScreen ? ' markdown-editor--fullscreen' : ''}`}
      data-mode={mode}
      data-fullscreen={fullScreen ? 'true' : 'false'}
    >
      <div className="markdown-editor__toolbar" role="toolbar" aria-label={t('editor.toolbar')}>
        {label && <span className="markdown-editor__label">{label}</span>}
        <span className="markdown-editor__group">
          {tool(t('editor.heading2'), 'Ctrl+Alt+2', run(commands.heading(2)), 'H2')}
          {tool(t('editor.heading3'), 'Ctrl+Alt+3', run(commands.heading(3)), 'H3')}
          {tool(t('editor.bold'), 'Ctrl+B', run(commands.bold), <b>B</b>)}
          {tool(t('editor.italic'), 'Ctrl+I', run(commands.italic), <i>I</i>)}
          {tool(t('editor.link'), 'Ctrl+K', run(commands.link), <LinkIcon />)}
          {tool(t('editor.quote'), 'Ctrl+Shift+.', run(commands.quote), <QuoteIcon />)}
          {tool(t('editor.bulletList'), 'Ctrl+Shift+8', run(commands.bulletList), <ListIcon />)}
          {tool(t('editor.numberedList'), 'Ctrl+Shift+7', run(commands.numberedList), '1.')}
          {tool(t('editor.codeBlock'), 'Ctrl+Alt+C', run(commands.codeBlock), '</>')}
          {tool(t('editor.image'), '', () => fileInputRef.current?.click(), <ImageIcon />)}
          {tool(t('editor.table'), '', run(commands.table), <TableIcon />)}
        </span>
        <span className="markdown-editor__group markdown-editor__group--view">
          {tool(t('editor.preview'), 'Ctrl+Alt+P', togglePreview, t('editor.preview'), mode === 'preview')}
          {tool(t('editor.split'), 'Ctrl+Alt+S', toggleSplit, t('editor.splitShort'), mode === 'split')}
          {tool(t('editor.fullScreen'), 'F11', toggleFullScreen, t(fullScreen ? 'editor.exitFullScreen' : 'editor.fullScreen'), fullScreen)}
        </span>
        <input
          ref={fileInputRef}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          hidden
          multiple
          onChange={(e) => {
            void upload(droppedFiles(e.target.files))
            e.target.value = ''
          }}
        />
      </div>
      {uploads > 0 && (
        <p className="markdown-editor__status" role="status">
          {t('editor.uploading', { count: uploads })}
        </p>
      )}
      {error && (
        <p className="markdown-editor__error" role="alert">
          {error}
          <button type="button" className="markdown-editor__dismiss" aria-label={t('editor.dismiss')} onClick={() => setError(null)}>
            ×
          </button>
        </p>
      )}
      <div className="markdown-editor__panes">
        <div className="markdown-editor__source" hidden={mode === 'preview'}>
          <CodeMirror
            value={value}
            onChange={onChange}
            extensions={extensions}
            onCreateEditor={(view) => void (viewRef.current = view)}
            basicSetup={{ foldGutter: false, highlightActiveLineGutter: false }}
            minHeight="24rem"
            height={fullScreen || mode === 'split' ? '100%' : undefined}
          />
        </div>
        {mode !== 'write' && (
          <div className="markdown-editor__preview" ref={previewRef} aria-live="polite" aria-busy={preview.loading}>
            {preview.error ? (
              <p className="markdown-editor__error" role="alert">
                {preview.error}
              </p>
            ) : (
              <div className="markdown-preview" dangerouslySetInnerHTML={{ __html: preview.html }} />
            )}
          </div>
        )}
      </div>
    </div>
  )
}

/** The `markdown` field of articles, wired to Payload's form state. */
export const MarkdownEditorField: TextareaFieldClientComponent = ({ field, path }) => {
  const { value, setValue, showError, errorMessage } = useField<string>({ path: path ?? field.name })
  const { config } = useConfig()
  const { t } = useAdminT()
  const label = typeof field.label === 'string' ? field.label : t('editor.fieldLabel')
  return (
    <div className={`field-type markdown-editor-field${showError ? ' error' : ''}`}>
      <FieldLabel label={label} path={path} required={field.required} />
      <FieldError path={path} showError={showError} message={errorMessage} />
      <MarkdownEditor value={value ?? ''} onChange={(v) => setValue(v)} apiRoute={config.routes.api} />
      <FieldDescription
        path={path}
        description={t('editor.help')}
      />
    </div>
  )
}
