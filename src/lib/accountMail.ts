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
