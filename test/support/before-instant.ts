/**
 * Sends requests that must reach the service before an instant `leadMs` from now (an expiry, an
 * automatic release), and answers with that instant and what `send` returned. How soon a test can
 * set such an instant depends on the machine; what happens at it does not. `send` throws when what
 * it sent was refused: once the instant has passed (or is less than `marginMs` away, for what must
 * still follow in time), that is the machine's slowness (a 400 for an instant in the past, an order
 * expired before it was paid), and `send` runs again, on new resources, with twice the lead.
 */
export async function beforeInstant<T>(leadMs: number, send: (instant: string) => Promise<T>, marginMs = 0): Promise<{ instant: string; sent: T }> {
  for (let lead = leadMs; ; lead *= 2) {
    const instant = new Date(Date.now() + lead).toISOString();
    try {
      return { instant, sent: await send(instant) };
    } catch (error) {
      if (Date.now() + marginMs < Date.parse(instant)) throw error;
    }
  }
}
