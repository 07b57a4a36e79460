/** The account mails: a text and an HTML part, the site's name, absolute links from BASE_URL. */
export type AccountMail = { subject: string; text: string; html: string }

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function passwordResetLink(baseUrl: string, token: string): string {
  return `${baseUrl}/password/reset?token=${encodeURIComponent(token)}`
}

export function passwordResetMail({ siteName, baseUrl, token, name }: { siteName: string; baseUrl: string; token: string; name?: string | null }): AccountMail {
  const link = passwordResetLink(baseUrl, token)
  const greeting = name ? `Hello ${name},` : 'Hello,'
  const text = [
    greeting,
    '',
    `Someone (we hope you) asked to reset the password of your ${siteName} account.`,
    'Open this link within 60 minutes to choose a new password. It works once.',
    '',
    link,
    '',
    'If you did not ask for this, ignore this mail: your password stays as it is.',
    '',
    `— ${siteName}`,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>Someone (we hope you) asked to reset the password of your <strong>${escapeHtml(siteName)}</strong> account.
Open this link within 60 minutes to choose a new password. It works once.</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p style="color:#555">${escapeHtml(link)}</p>
<p>If you did not ask for this, ignore this mail: your password stays as it is.</p>
<p>— ${escapeHtml(siteName)}</p>
</body></html>`
  return { subject: `Reset your ${siteName} password`, text, html }
}

export function verifyEmailLink(baseUrl: string, token: string): string {
  return `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`
}

export function verifyEmailMail({ siteName, baseUrl, token, name }: { siteName: string; baseUrl: string; token: string; name?: string | null }): AccountMail {
  const link = verifyEmailLink(baseUrl, token)
  const greeting = name ? `Hello ${name},` : 'Hello,'
  const text = [
    greeting,
    '',
    `Welcome to ${siteName}. Open this link to confirm your e-mail address; then you can sign in.`,
    '',
    link,
    '',
    'If you did not create an account, ignore this mail.',
    '',
    `— ${siteName}`,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>Welcome to <strong>${escapeHtml(siteName)}</strong>. Open this link to confirm your e-mail address; then you can sign in.</p>
<p><a href="${escapeHtml(link)}">Confirm my e-mail address</a></p>
<p style="color:#555">${escapeHtml(link)}</p>
<p>If you did not create an account, ignore this mail.</p>
<p>— ${escapeHtml(siteName)}</p>
</body></html>`
  return { subject: `Confirm your e-mail address for ${siteName}`, text, html }
}

export type AccountChange = 'password' | 'email'

/** Sent to the address the account had before the change, so a takeover cannot pass unnoticed. */
export function accountChangedMail({
  siteName,
  baseUrl,
  changes,
  name,
  newEmail,
}: { siteName: string; baseUrl: string; changes: AccountChange[]; name?: string | null; newEmail?: string | null }): AccountMail {
  const greeting = name ? `Hello ${name},` : 'Hello,'
  const what = [
    ...(changes.includes('password') ? ['The password of your account was changed.'] : []),
    ...(changes.includes('email') ? [`The e-mail address of your account was changed to ${newEmail ?? 'another address'}.`] : []),
  ]
  const forgot = `${baseUrl}/password/forgot`
  const text = [
    greeting,
    '',
    ...what,
    '',
    `If this was you, nothing more is needed. If not, choose a new password at once (${forgot}) and tell the ${siteName} team.`,
    '',
    `— ${siteName}`,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${what.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>If this was you, nothing more is needed. If not, <a href="${escapeHtml(forgot)}">choose a new password</a> at once and tell the ${escapeHtml(siteName)} team.</p>
<p>— ${escapeHtml(siteName)}</p>
</body></html>`
  return { subject: `Your ${siteName} account was changed`, text, html }
}

/** Sent when someone registers with an address that already has an account: the form answers as for a new one. */
export function accountExistsMail({ siteName, baseUrl }: { siteName: string; baseUrl: string }): AccountMail {
  const login = `${baseUrl}/login`
  const forgot = `${baseUrl}/password/forgot`
  const text = [
    'Hello,',
    '',
    `Someone (we hope you) tried to register on ${siteName} with this e-mail address, which already has an account.`,
    `Sign in at ${login}, or choose a new password at ${forgot} if you forgot it.`,
    '',
    'If this was not you, ignore this mail: nothing was changed.',
    '',
    `— ${siteName}`,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>Hello,</p>
<p>Someone (we hope you) tried to register on <strong>${escapeHtml(siteName)}</strong> with this e-mail address, which already has an account.</p>
<p><a href="${escapeHtml(login)}">Sign in</a>, or <a href="${escapeHtml(forgot)}">choose a new password</a> if you forgot it.</p>
<p>If this was not you, ignore this mail: nothing was changed.</p>
<p>— ${escapeHtml(siteName)}</p>
</body></html>`
  return { subject: `Your ${siteName} account`, text, html }
}
