import { html } from '@app/http';
import { PASSWORD_MIN_LENGTH } from '@app/credentials';
import { notice, type Notice, type PageShell } from '../../kit/page';
import { DASHBOARD_BRAND } from '../dashboard-shell';

export function signInPage(csrf: string, options: { email?: string; notice?: Notice } = {}): PageShell {
  return {
    title: 'Sign in',
    brand: DASHBOARD_BRAND,
    narrow: true,
    body: html`<h1>Sign in to the merchant dashboard</h1>
${notice(options.notice)}
<form class="card" method="post" action="/dashboard/sign-in">
  <input type="hidden" name="_csrf" value="${csrf}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${options.email ?? ''}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
  <div class="actions"><button type="submit">Sign in</button></div>
</form>
<p class="muted">New here? Open the invitation link your administrator sent you to set your password.</p>`,
  };
}

/** The invitation token arrives in the URL fragment; this moves it into the form and out of the address bar. */
const INVITATION_SCRIPT = `
(function () {
  var token = decodeURIComponent(location.hash.slice(1));
  var field = document.getElementById('token');
  if (token && field && !field.value) { field.value = token; document.getElementById('token-row').hidden = true; }
  if (location.hash) history.replaceState(null, '', location.pathname);
})();
`;

export function invitationPage(csrf: string, options: { token?: string; notice?: Notice } = {}): PageShell {
  return {
    title: 'Set your password',
    brand: DASHBOARD_BRAND,
    narrow: true,
    script: INVITATION_SCRIPT,
    body: html`<h1>Set your dashboard password</h1>
${notice(options.notice)}
<form class="card" method="post" action="/dashboard/invitation">
  <input type="hidden" name="_csrf" value="${csrf}">
  <div id="token-row">
    <label for="token">Invitation code</label>
    <input id="token" name="token" required maxlength="200" autocomplete="off" value="${options.token ?? ''}" aria-describedby="token-help">
    <p id="token-help" class="muted">The part of your invitation link after the # sign.</p>
  </div>
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="256" aria-describedby="password-help">
  <p id="password-help" class="muted">At least ${PASSWORD_MIN_LENGTH} characters.</p>
  <label for="confirm">Repeat the password</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="256">
  <div class="actions"><button type="submit">Set password and sign in</button></div>
</form>`,
  };
}
