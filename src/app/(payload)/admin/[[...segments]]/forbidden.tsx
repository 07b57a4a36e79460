/**
 * What an admin view that calls Next's forbidden() shows, with status 403
 * (the queue console, for anyone without `queue.monitor`).
 */
export default function Forbidden() {
  return (
    <main style={{ maxWidth: '40rem', margin: '4rem auto', padding: '0 1.5rem', fontFamily: 'system-ui, sans-serif' }}>
      <h1>403 — not allowed</h1>
      <p>This page needs a permission your account does not hold (the queue console needs <code>queue.monitor</code>).</p>
      <p>
        <a href="/admin">Back to the admin</a> · <a href="/admin/login">Sign in as someone else</a>
      </p>
    </main>
  )
}
