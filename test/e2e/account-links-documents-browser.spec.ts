import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { fitsViewportWidth, seriousAccessibilityViolations, VIEWPORTS } from '../support/axe';
import { ARTIFACTS, launchChromium, openPage } from '../support/browser';
import { registerMerchant, type TestMerchant } from '../support/fixtures';
import { call } from '../support/http';

/**
 * Issue 42, item 1: on the hosted onboarding page a seller uploads the documents asked of it, in a real
 * browser (Chromium, at phone and desktop widths): the page lists what was asked and by when, refuses a
 * missing or mistyped file with a summary that leads to the field, and keeps a good one through the API's
 * own checks and command (sealed, an AccountDocumentUploaded event), meeting its requirement.
 */
describe('documents on the hosted onboarding page, in a real browser', () => {
  let running: RunningApp;
  let browser: Browser;
  let platform: TestMerchant;
  const contexts: BrowserContext[] = [];
  const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('trade licence AA/14/1234/2030 '.repeat(20))]);

  // axe is injected, which the page's CSP forbids: bypassed in these contexts only.
  const newPage = (viewport: { width: number; height: number }) => openPage(browser, contexts, { viewport, bypassCSP: true });

  async function checkPage(page: Page, name: string): Promise<void> {
    expect({ name, violations: await seriousAccessibilityViolations(page) }).toEqual({ name, violations: [] });
    expect({ name, fits: await fitsViewportWidth(page) }).toEqual({ name, fits: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    running = await startApp({ env: { SANDBOX_DELAY_MS: '30' } });
    browser = await launchChromium();
    platform = await registerMerchant(running.baseUrl, 'Merkato Documents');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await running?.close();
  });

  it.each(Object.entries(VIEWPORTS))('takes the documents asked of the seller, checked and sealed as the API takes them (%s)', async (width, viewport) => {
    const headers = { 'x-api-secret': platform.apiSecret };
    const created = await call(running.baseUrl, 'POST', '/v1/trdp/accounts', { body: { name: `Tsehay Bakery ${width}`, type: 'business' }, headers });
    const accountId = created.body.data.accountId as string;
    const dueBy = '2040-03-01T21:00:00.000Z';
    const asked = await call(running.baseUrl, 'POST', `/v1/admin/accounts/${accountId}/request-information`, {
      body: { requirements: [{ kind: 'trade_licence', dueBy }, { kind: 'identity', dueBy }] },
      headers: { 'x-admin-key': TEST_ADMIN_KEY },
    });
    expect(asked.status).toBe(200);
    const link = await call(running.baseUrl, 'POST', '/v1/trdp/account-links', { body: { accountId, returnUrl: 'https://marketplace.example/done', refreshUrl: 'https://marketplace.example/again' }, headers });

    const { page, errors } = await newPage(viewport);
    await page.goto(`${running.baseUrl}${new URL(link.body.data.url).pathname}`);
    await page.getByRole('heading', { name: 'Documents' }).waitFor();
    const askedList = page.locator('#requirements-due li');
    expect(await askedList.allInnerTexts()).toEqual(['Trade licence, due by 2040-03-01 21:00:00 UTC', 'Identity document, due by 2040-03-01 21:00:00 UTC']);
    await checkPage(page, `onboarding-documents-${width}`);

    // No file chosen: refused, the summary focused, its link leading to the file field.
    await page.getByRole('button', { name: 'Upload the document' }).click();
    const summary = page.getByRole('alert');
    await summary.getByText('Choose the file of the document to upload').waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('error-summary');
    await checkPage(page, `onboarding-documents-refused-${width}`);
    await summary.getByRole('link', { name: 'Choose the file of the document to upload' }).click();
    expect(new URL(page.url()).hash).toBe('#documentFile');
    expect(await page.getByLabel('File').getAttribute('aria-invalid')).toBe('true');

    // A file whose bytes are not what its type says: refused as the API refuses it.
    await page.getByLabel('File').setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PDF });
    await page.getByRole('button', { name: 'Upload the document' }).click();
    await summary.getByText(/is sent as image\/png but its bytes are not/).waitFor();

    await page.getByLabel('Document', { exact: true }).selectOption('trade_licence');
    await page.getByLabel('File').setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Upload the document' }).click();
    await page.locator('#documents-received li').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/onboarding');
    expect(await page.locator('#documents-received li').allInnerTexts()).toEqual([expect.stringMatching(`^Trade licence, application/pdf, ${PDF.length} bytes, received `)]);
    expect(await askedList.allInnerTexts()).toEqual(['Identity document, due by 2040-03-01 21:00:00 UTC']);
    await checkPage(page, `onboarding-documents-received-${width}`);
    // The two refused uploads' 415 and 400 are the only errors the console logs: no script failed.
    expect(errors.sort()).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)', 'Failed to load resource: the server responded with a status of 415 (Unsupported Media Type)']);

    // Through the API's command: the platform reads it, its bytes as sent, and the requirement it met is gone.
    const documents = (await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}/documents`, { headers })).body.data.documents;
    expect(documents).toEqual([expect.objectContaining({ kind: 'trade_licence', contentType: 'application/pdf', size: PDF.length, sha256: createHash('sha256').update(PDF).digest('hex') })]);
    const bytes = Buffer.from(await (await fetch(`${running.baseUrl}/v1/trdp/accounts/${accountId}/documents/${documents[0].documentId}`, { headers })).arrayBuffer());
    expect(bytes.equals(PDF)).toBe(true);
    expect((await call(running.baseUrl, 'GET', `/v1/trdp/accounts/${accountId}`, { headers })).body.data.requirementsDue).toEqual([{ kind: 'identity', dueBy, pastDue: false }]);
    const events = (await call(running.baseUrl, 'GET', `/v1/audit/streams/account-${accountId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } })).body.data.events;
    // Uploaded by the seller, as its own account: the event's data says so as its actor does.
    expect(events.at(-1)).toMatchObject({ type: 'AccountDocumentUploaded', data: { kind: 'trade_licence', size: PDF.length, uploadedBy: { type: 'merchant', id: accountId } }, metadata: { actor: { type: 'merchant', id: accountId } } });
  });

  it('refuses an upload without the form token, keeping nothing', async () => {
    const form = new FormData();
    form.append('documentKind', 'identity');
    form.append('documentFile', new Blob([PDF], { type: 'application/pdf' }), 'id.pdf');
    const uploads = async () => (await running.schema!.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE event_type = 'AccountDocumentUploaded'`))[0].n;
    const before = await uploads();
    const response = await fetch(`${running.baseUrl}/onboarding/documents`, { method: 'POST', body: form });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('This form has expired');
    expect(await uploads()).toBe(before);
  });
});
