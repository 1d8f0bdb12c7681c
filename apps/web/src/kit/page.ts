import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { contentSecurityPolicy, html, SafeHtml } from '@app/http';

export const STYLESHEET_PATH = '/assets/console.css';

export interface NavLink {
  href: string;
  label: string;
}

export interface PageShell {
  title: string;
  /** The console's name, linked to its start page. */
  brand: NavLink;
  nav?: NavLink[];
  /** Path of the current section, marked aria-current in the navigation. */
  current?: string;
  /** Who is signed in, and where the sign-out form posts. */
  signedIn?: { who: string; signOutAction: string; csrfToken: string };
  narrow?: boolean;
  body: SafeHtml;
  /** A few lines of progressive enhancement; the page works without them. */
  script?: string;
}

function renderPage(shell: PageShell, nonce: string): string {
  const nav = shell.nav?.length
    ? html`<nav aria-label="Sections"><ul>${shell.nav.map(
        (link) => html`<li><a href="${link.href}"${new SafeHtml(link.href === shell.current ? ' aria-current="page"' : '')}>${link.label}</a></li>`,
      )}</ul></nav>`
    : '';
  const signedIn = shell.signedIn
    ? html`<span class="who">${shell.signedIn.who}</span>
<form method="post" action="${shell.signedIn.signOutAction}"><input type="hidden" name="_csrf" value="${shell.signedIn.csrfToken}"><button type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLESHEET_PATH}">
<title>${shell.title} · ${shell.brand.label}</title>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="bar"><a class="brand" href="${shell.brand.href}">${shell.brand.label}</a>${nav}${signedIn}</div></header>
<main id="main" tabindex="-1"${new SafeHtml(shell.narrow ? ' class="narrow"' : '')}>
${shell.body}
</main>
${shell.script ? html`<script nonce="${nonce}">${new SafeHtml(shell.script)}</script>` : ''}
</body>
</html>`.value;
}

/** Authenticated and error pages alike are never cached: they carry account data or one-time secrets. */
export function sendPage(reply: FastifyReply, shell: PageShell, status = 200): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(nonce, 'self'))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(renderPage(shell, nonce));
}

export type Notice = { text: string; tone?: 'bad' | 'warn' } | undefined;

/** A message at the top of a page; a bad or warning one is announced at once (role alert). */
export function notice(message: Notice): SafeHtml | '' {
  if (!message) return '';
  return html`<div class="notice${message.tone ? ` ${message.tone}` : ''}" role="${message.tone ? 'alert' : 'status'}">${message.text}</div>`;
}

export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}

/** A console's CSV download: never cached, since it holds a signed-in account's money. */
export function sendCsv(reply: FastifyReply, filename: string, csv: string | Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
