/** The account mails: a text and an HTML part, the site's name, absolute links from BASE_URL. */
import { escapeHtml } from './escapeHtml'
import { translator, type Translate } from './i18n'

const english = translator('en')

/** A catalog sentence with the site's name (`{site}`) in bold. */
function withSite(sentence: string, siteName: string): Paragraph {
  const [before, ...after] = sentence.split('{site}')
  return after.length ? [before!, { strong: siteName }, after.join(siteName)] : [sentence]
}

export type AccountMail = { subject: string; text: string; html: string }

/** Plain text (escaped in the HTML part), the site's name in bold, or a part written for each form. */
type Piece = string | { strong: string } | { text: string; html: string }
type Paragraph = Piece[]
/**
 * A paragraph; or lines, adjacent in the text part and paragraphs of their own
 * in HTML; or a link shown as a button-like line followed by its address in grey.
 */
type Block = Paragraph | { lines: Paragraph[] } | { button: { href: string; label: string } }

const anchor = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`

const pieceText = (piece: Piece) => (typeof piece === 'string' ? piece : 'strong' in piece ? piece.strong : piece.text)
const pieceHtml = (piece: Piece) =>
  typeof piece === 'string' ? escapeHtml(piece) : 'strong' in piece ? `<strong>${escapeHtml(piece.strong)}</strong>` : piece.html

function blockText(block: Block): string {
  if ('button' in block) return block.button.href
  if ('lines' in block) return block.lines.map((line) => line.map(pieceText).join('')).join('\n')
  return block.map(pieceText).join('')
}

function blockHtml(block: Block): string {
  if ('button' in block) return `<p>${anchor(block.button.href, block.button.label)}</p>\n<p style="color:#555">${escapeHtml(block.button.href)}</p>`
  if ('lines' in block) return block.lines.map((line) => `<p>${line.map(pieceHtml).join('')}</p>`).join('\n')
  return `<p>${block.map(pieceHtml).join('')}</p>`
}

/** The one account-mail layout: greeting, the blocks, the site's signature; as text and as HTML. */
function accountMail({ subject, siteName, name, blocks, t = english }: { subject: string; siteName: string; name?: string | null; blocks: Block[]; t?: Translate }): AccountMail {
  const all: Block[] = [[name ? t('mail.hello', { name }) : t('mail.helloAnon')], ...blocks, [`— ${siteName}`]]
  return {
    subject,
    text: all.map(blockText).join('\n\n'),
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n${all.map(blockHtml).join('\n')}\n</body></html>`,
  }
}

export function passwordResetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/password/reset?token=${encodeURIComponent(token)}`
}

/** `t`: the catalog in the recipient's language (src/lib/i18n), English when not given. */
export function passwordResetMail({ siteName, baseUrl, token, name, t = english }: { siteName: string; baseUrl: string; token: string; name?: string | null; t?: Translate }): AccountMail {
  return accountMail({
    subject: t('mail.reset.subject', { site: siteName }),
    siteName,
    name,
    t,
    blocks: [
      withSite(t('mail.reset.intro'), siteName),
      { button: { href: passwordResetLink(baseUrl, token), label: t('mail.reset.button') } },
      [t('mail.reset.ignore')],
    ],
  })
}

export function verifyEmailLink(baseUrl: string, token: string): string {
  return `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`
}

export function verifyEmailMail({ siteName, baseUrl, token, name, t = english }: { siteName: string; baseUrl: string; token: string; name?: string | null; t?: Translate }): AccountMail {
  return accountMail({
    subject: t('mail.verify.subject', { site: siteName }),
    siteName,
    name,
    t,
    blocks: [
      withSite(t('mail.verify.welcome'), siteName),
      { button: { href: verifyEmailLink(baseUrl, token), label: t('mail.verify.button') } },
      [t('mail.verify.ignore')],
    ],
  })
}

export type AccountChange = 'password' | 'email'

/**
 * What a password change or reset did to the account's personal access
 * tokens: revoked (the default) or kept (the account holder chose to). Noted
 * in the request context by the access-token feature, read by the account
 * mail so it says what happened; absent when the account had none.
 */
export type TokenOutcome = { action: 'revoked' | 'kept'; publicIds: string[] }

const TOKEN_OUTCOMES = 'inkwellTokenOutcomes'

export function noteTokenOutcome(context: Record<string, unknown>, userId: number | string, outcome: TokenOutcome): void {
  const outcomes = (context[TOKEN_OUTCOMES] ??= {}) as Record<string, TokenOutcome>
  outcomes[String(userId)] = outcome
}

/** The outcome noted for this user in this request, taken (so a later change in the same request is told its own). */
export function takeTokenOutcome(context: Record<string, unknown>, userId: number | string): TokenOutcome | undefined {
  const outcomes = context[TOKEN_OUTCOMES] as Record<string, TokenOutcome> | undefined
  const outcome = outcomes?.[String(userId)]
  if (outcomes) delete outcomes[String(userId)]
  return outcome
}

function tokenLines(tokens: TokenOutcome | undefined, baseUrl: string): Paragraph[] {
  if (!tokens || tokens.publicIds.length === 0) return []
  const count = tokens.publicIds.length
  const which = `${count === 1 ? 'personal access token' : `${count} personal access tokens`} (${tokens.publicIds.map((id) => `iwt_${id}_…`).join(', ')})`
  const profile = `${baseUrl}/profile#tokens`
  return tokens.action === 'revoked'
    ? [[`Your ${which} ${count === 1 ? 'was' : 'were'} revoked with the old password: scripts using ${count === 1 ? 'it' : 'them'} stop working. Make new ones on your profile (${profile}) if you need them.`]]
    : [[`Your ${which} ${count === 1 ? 'was' : 'were'} kept, as chosen with the change: ${count === 1 ? 'it still works' : 'they still work'}. If this change was not you, revoke ${count === 1 ? 'it' : 'them'} on your profile (${profile}).`]]
}

/** Sent to the address the account had before the change, so a takeover cannot pass unnoticed. */
export function accountChangedMail({
  siteName,
  baseUrl,
  changes,
  name,
  newEmail,
  tokens,
}: {
  siteName: string
  baseUrl: string
  changes: AccountChange[]
  name?: string | null
  newEmail?: string | null
  tokens?: TokenOutcome
}): AccountMail {
  const forgot = `${baseUrl}/password/forgot`
  const what: Paragraph[] = [
    ...(changes.includes('password') ? [['The password of your account was changed.']] : []),
    ...(changes.includes('email') ? [[`The e-mail address of your account was changed to ${newEmail ?? 'another address'}.`]] : []),
    ...tokenLines(tokens, baseUrl),
  ]
  return accountMail({
    subject: `Your ${siteName} account was changed`,
    siteName,
    name,
    blocks: [
      { lines: what },
      [
        'If this was you, nothing more is needed. If not, ',
        { text: `choose a new password at once (${forgot})`, html: `${anchor(forgot, 'choose a new password')} at once` },
        ` and tell the ${siteName} team.`,
      ],
    ],
  })
}

/** Sent when someone registers with an address that already has an account: the form answers as for a new one. */
export function accountExistsMail({ siteName, baseUrl }: { siteName: string; baseUrl: string }): AccountMail {
  const login = `${baseUrl}/login`
  const forgot = `${baseUrl}/password/forgot`
  return accountMail({
    subject: `Your ${siteName} account`,
    siteName,
    blocks: [
      {
        lines: [
          ['Someone (we hope you) tried to register on ', { strong: siteName }, ' with this e-mail address, which already has an account.'],
          [
            { text: `Sign in at ${login}`, html: anchor(login, 'Sign in') },
            ', or ',
            { text: `choose a new password at ${forgot}`, html: anchor(forgot, 'choose a new password') },
            ' if you forgot it.',
          ],
        ],
      },
      ['If this was not you, ignore this mail: nothing was changed.'],
    ],
  })
}
