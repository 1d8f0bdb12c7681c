import { TEST_ADMIN_KEY } from './app';
import { call } from './http';

export interface PageResult {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/**
 * A cookie-keeping HTTP client for the server-rendered consoles: what a browser without JavaScript
 * does (follow no redirects by itself, send cookies back by path, submit forms with their token).
 */
export class ConsoleClient {
  private readonly jar = new Map<string, { value: string; path: string }>();

  constructor(private readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.jar.get(name)?.value;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.jar.set(name, { value, path });
  }

  async get(path: string): Promise<PageResult> {
    return this.request('GET', path);
  }

  /** Posts a urlencoded form; `csrfFrom` names a page whose form token is sent along. */
  async post(path: string, form: Record<string, string>, options: { csrfFrom?: string } = {}): Promise<PageResult> {
    const fields = { ...form };
    if (options.csrfFrom) fields._csrf = csrfTokenOf((await this.get(options.csrfFrom)).text);
    return this.request('POST', path, new URLSearchParams(fields).toString());
  }

  /** Posts a multipart form (a file upload), as post does a urlencoded one. */
  async upload(path: string, form: FormData, options: { csrfFrom?: string } = {}): Promise<PageResult> {
    if (options.csrfFrom) form.set('_csrf', csrfTokenOf((await this.get(options.csrfFrom)).text));
    return this.request('POST', path, form);
  }

  private async request(method: string, path: string, body?: string | FormData): Promise<PageResult> {
    const cookies = [...this.jar].filter(([, c]) => path.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookies.length ? { cookie: cookies.join('; ') } : {}),
        // A FormData body brings its own multipart type and boundary.
        ...(typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()) || value === '';
      if (expired) this.jar.delete(name);
      else this.jar.set(name, { value, path });
    }
    return { status: response.status, headers: response.headers, text: await response.text(), location: response.headers.get('location') };
  }
}

export function csrfTokenOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page has no form token');
  return match[1];
}

export function invitationToken(invitationUrl: string): string {
  return decodeURIComponent(invitationUrl.slice(invitationUrl.indexOf('#') + 1));
}

/** A merchant registered by the operator and signed in to the dashboard through its invitation: its payable starts empty, whatever other tests paid. */
export async function signedInMerchant(baseUrl: string, name: string, password: string): Promise<{ merchantId: string; apiSecret: string; browser: ConsoleClient }> {
  const registered = await call(baseUrl, 'POST', '/v1/admin/merchants', {
    body: { name, email: `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@shop.example` },
    headers: { 'x-admin-key': TEST_ADMIN_KEY },
  });
  const browser = new ConsoleClient(baseUrl);
  const accepted = await browser.post('/dashboard/invitation', { token: invitationToken(registered.body.data.invitationUrl), password, confirm: password }, { csrfFrom: '/dashboard/invitation' });
  if (accepted.status !== 303) throw new Error(`the invitation was not accepted: ${accepted.status}`);
  return { merchantId: registered.body.data.merchantId, apiSecret: registered.body.data.apiSecret, browser };
}
