import { html, type SafeHtml } from '@app/http';
import { when } from '../kit/format';

/** Under an alert's instant: the test clock the object runs on and its time, which its days are counted to (docs/concepts/time.md). */
export function onTestClock(testClock: { testClockId: string; time: Date } | undefined): SafeHtml {
  return testClock ? html`<br><span class="muted">Test clock ${testClock.testClockId}, now ${when(testClock.time)}</span>` : html``;
}
