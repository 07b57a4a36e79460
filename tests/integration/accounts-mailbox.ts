/** Moved to tests/helpers/smtp.ts (the one SMTP test server); kept so existing imports still work. */
export { Mailbox, recipient, type ParsedMail } from '../helpers/smtp'
