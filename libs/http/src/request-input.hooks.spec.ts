import type { FastifyRequest } from 'fastify';
import { refuseUnstorableInput } from './request-input.hooks';

const refusal = async (input: { params?: unknown; query?: unknown; body?: unknown }): Promise<string | undefined> => {
  try {
    await refuseUnstorableInput({ params: {}, query: {}, ...input } as FastifyRequest);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('refuseUnstorableInput', () => {
  it('names where the text that cannot be stored sits, as a client names it', async () => {
    expect(await refusal({ params: { id: 'a\u0000' } })).toBe('path parameter id contains a NUL character');
    expect(await refusal({ query: { orderId: ['a', 'b\u0000'] } })).toBe('query parameter orderId[1] contains a NUL character');
    expect(await refusal({ body: { items: [{ name: 'ok' }, { name: 'x\udc00' }] } })).toBe('items[1].name is not valid Unicode text (a lone surrogate)');
    expect(await refusal({ body: { customer: { name: 'a\u0000' } } })).toBe('customer.name contains a NUL character');
    expect(await refusal({ body: 'a\u0000' })).toBe('The request body contains a NUL character');
  });

  it('names the object holding a field name that cannot be stored', async () => {
    expect(await refusal({ body: { '\u0000': 1 } })).toBe('A field name contains a NUL character');
    expect(await refusal({ body: { items: [{ meta: { 'k\u0000': 1 } }] } })).toBe('A field name in items[0].meta contains a NUL character');
    expect(await refusal({ query: { 'x\ud800': '1' } })).toBe('A field name in query parameter is not valid Unicode text (a lone surrogate)');
  });

  it('refuses nesting past 32 levels and takes what can be stored', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { z: deep };
    expect(await refusal({ body: { x: deep } })).toBe('The request body is nested deeper than 32 levels');
    expect(await refusal({ body: { orderId: 'o-1', amount: 10, items: [{ a: null }], text: 'Abebe 😀' } })).toBeUndefined();
  });
});
