/** The success envelope of every response (spec: status, timestamp, message, data). */
export interface Envelope<T> {
  status: 'success';
  timestamp: string;
  message: string;
  data: T;
}

export function envelope<T>(message: string, data: T): Envelope<T> {
  return { status: 'success', timestamp: new Date().toISOString(), message, data };
}
