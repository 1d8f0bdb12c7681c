import { santim, toEtbNumber } from '@app/domain';

/** Signed santim as signed birr, as the API and its CSVs show them (a movement out of the payable is negative). */
export const signedBirr = (santimAmount: number) => Math.sign(santimAmount) * toEtbNumber(santim(Math.abs(santimAmount)));
