import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useConsole } from '../context.js';
import { login } from '../auth/session.js';
import { errorText } from '../lib/errors.js';

export function LoginPage() {
  const { api, signIn } = useConsole();
  const [, navigate] = useLocation();
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [secondFactor, setSecondFactor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const outcome = await login(api, { user, password, code: secondFactor ? code : undefined });
      if (outcome.kind === 'second-factor') {
        setSecondFactor(outcome.message);
        return;
      }
      signIn(outcome.creds, outcome.me);
      navigate('/', { replace: true });
    } catch (e) {
      setError(errorText(e, 'login'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="center-page">
      <form className="card login" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Parley console</h1>
        <p className="muted">Sign in to answer your visitors.</p>
        <label htmlFor="login-user">Username or email</label>
        <input id="login-user" name="username" autoComplete="username" required value={user} onChange={(e) => setUser(e.target.value)} autoFocus />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {secondFactor && (
          <>
            <label htmlFor="login-code">Verification code</label>
            <p className="muted" id="login-code-help">
              {secondFactor}
            </p>
            <input
              id="login-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-describedby="login-code-help"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoFocus
            />
          </>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : secondFactor ? 'Verify and sign in' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
