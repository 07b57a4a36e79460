'use client'
/**
 * Ctrl+S (⌘S) inside the rich-text editor saves what is on screen.
 *
 * Why: what is typed reaches the document form late. A code block's source
 * goes through the block's own form (a debounced server round trip) before
 * it is written into the editor, and the editor hands its state to the
 * field only when the browser is idle. Payload's save shortcut submits the
 * form at once, so the code was saved as it was before the last keystrokes.
 * Here the shortcut first writes the focused block field into its node, puts
 * the editor's state into the field, and then saves the way Payload's own
 * shortcut does: a draft where the collection keeps drafts (articles, see
 * src/plugins/drafts: publishing stays a button), else the Save button.
 */
import { $getNearestNodeFromDOMNode } from '@payloadcms/richtext-lexical/lexical'
import { useLexicalComposerContext } from '@payloadcms/richtext-lexical/lexical/react/LexicalComposerContext'
import { $isBlockNode, createClientFeature, useEditorConfigContext } from '@payloadcms/richtext-lexical/client'
import { useConfig, useDocumentInfo, useForm } from '@payloadcms/ui'
import { useEffect } from 'react'

function isSaveShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 's'
}

/** Waits until the form holds `value` at `path` (React has applied the update), for a few frames at most. */
async function formHolds(getFields: () => Record<string, { value?: unknown }>, path: string, value: unknown): Promise<void> {
  for (let frame = 0; frame < 30 && getFields()[path]?.value !== value; frame++) {
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
}

function SaveShortcutPlugin() {
  const [editor] = useLexicalComposerContext()
  const { fieldProps } = useEditorConfigContext()
  const { dispatchFields, getFields, setModified, submit } = useForm()
  const { id, collectionSlug, docConfig } = useDocumentInfo()
  const { config } = useConfig()
  const path = fieldProps.path
  const drafts = Boolean(docConfig && 'versions' in docConfig && docConfig.versions && docConfig.versions.drafts)

  useEffect(() => {
    const commitAndSave = async (event: KeyboardEvent) => {
      if (!isSaveShortcut(event)) return
      // Before Payload's own shortcut (listening on document) submits the stale form.
      event.preventDefault()
      event.stopPropagation()
      const target = event.target
      editor.update(
        () => {
          if (!(target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement) || !target.name) return
          const node = $getNearestNodeFromDOMNode(target)
          if ($isBlockNode(node)) node.setFields({ ...node.getFields(), [target.name]: target.value }, true)
        },
        { discrete: true },
      )
      const value = editor.getEditorState().toJSON()
      dispatchFields({ type: 'UPDATE', path, value })
      setModified(true)
      await formHolds(getFields, path, value)
      if (drafts && collectionSlug) {
        const action = `${config.routes.api}/${collectionSlug}${id ? `/${id}` : ''}?depth=0&draft=true`
        await submit({ action, method: id ? 'PATCH' : 'POST', overrides: { _status: 'draft' }, skipValidation: true })
      } else {
        document.querySelector<HTMLButtonElement>('#action-save')?.click()
      }
    }
    const listener = (event: KeyboardEvent) => void commitAndSave(event)
    return editor.registerRootListener((root, previous) => {
      previous?.removeEventListener('keydown', listener)
      root?.addEventListener('keydown', listener)
    })
  }, [editor, path, dispatchFields, getFields, setModified, submit, drafts, collectionSlug, id, config.routes.api])

  return null
}

export const RichTextSaveFeatureClient = createClientFeature({
  plugins: [{ Component: SaveShortcutPlugin, position: 'normal' }],
})
