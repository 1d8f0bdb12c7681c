/** One text field of a urlencoded form body; anything else (missing, repeated, too long) reads as ''. */
export function field(body: unknown, name: string, maxLength = 1024): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value.length <= maxLength ? value : '';
}
