import { accountEndpoint, fieldErrors, noStore, signedInUser } from '../../../lib/accountHttp'
import { avatarFileName, sniffAvatar } from '../../../lib/avatarImage'
import type { AccountsOptions } from '../options'
import { translatorFor } from '../../../lib/i18n/request'

/** POST /api/accounts/avatar — multipart: `file` (the image) and `type=avatar`. */
export const avatarEndpoint = (options: AccountsOptions) =>
  accountEndpoint(
    'post',
    '/avatar',
    async (req) => {
      const user = signedInUser(req)
      const t = translatorFor(req)
      if (!user) return fieldErrors({ form: t('error.avatar.signIn') }, 401)
      const tooLarge = () => fieldErrors({ file: t('error.avatar.tooLarge', { size: Math.round(options.avatarMaxBytes / 1024 / 1024) }) }, 413)
      // Refuse an oversized body before reading it; multipart framing adds a few hundred bytes.
      const declared = Number(req.headers.get('content-length') ?? 0)
      if (declared > options.avatarMaxBytes + 64 * 1024) return tooLarge()

      let form: FormData
      try {
        form = await req.formData!()
      } catch {
        return fieldErrors({ file: t('error.avatar.multipart') })
      }
      if (form.get('type') !== 'avatar') return fieldErrors({ type: t('error.avatar.type') })
      const file = form.get('file')
      if (!file || typeof file === 'string' || file.size === 0) return fieldErrors({ file: t('error.avatar.choose') })
      if (file.size > options.avatarMaxBytes) return tooLarge()

      const bytes = Buffer.from(await file.arrayBuffer())
      const kind = await sniffAvatar(bytes)
      if (!kind) return fieldErrors({ file: t('error.avatar.format') }, 415)

      const previous = typeof user.avatar === 'object' && user.avatar ? (user.avatar as { id: number }).id : user.avatar
      const media = await req.payload.create({
        collection: 'media',
        data: { alt: `Avatar of ${user.name ?? 'a reader'}` },
        file: { data: bytes, mimetype: kind.mime, name: avatarFileName(file.name, kind.ext), size: bytes.length },
        overrideAccess: false,
        req,
      })
      await req.payload.update({ collection: 'users', id: user.id, data: { avatar: media.id }, overrideAccess: false, req })
      if (typeof previous === 'number' && previous !== media.id) {
        // The old picture is no longer used anywhere; removing it is best effort.
        await req.payload.delete({ collection: 'media', id: previous, overrideAccess: false, req }).catch(() => undefined)
      }
      return Response.json(
        {
          avatar: {
            id: media.id,
            mimeType: media.mimeType,
            url: media.url,
            thumbnailURL: media.sizes?.thumbnail?.url ?? media.url,
            squareURL: media.sizes?.square?.url ?? media.url,
          },
        },
        { status: 201, headers: noStore() },
      )
    },
    { multipart: true },
  )
