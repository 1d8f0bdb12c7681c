import { PickType } from '@nestjs/swagger';
import { CloseAccountDto, PausePayoutsDto } from '@app/contract';
import { InvalidInput } from '@app/domain';
import { Checkbox } from '../../kit/form';

/**
 * A seller page's forms for its platform (kit/form.ts readForm): the reasons as the API's bodies declare
 * them. Resume and a payout's cancellation post no field of their own; Pay out posts PayoutAmountForm.
 */
export class PausePayoutsForm extends PickType(PausePayoutsDto, ['reason'] as const) {}

export class CloseAccountForm extends PickType(CloseAccountDto, ['reason'] as const) {
  /** The box ticked to say the platform means it: nothing reopens a closed account (confirmedClosing). */
  @Checkbox()
  confirm?: 'on';
}

/** The closing's reason, once its box is ticked: unticked, the form is refused in words (a browser sends nothing for it). */
export function confirmedClosing(form: CloseAccountForm): string {
  if (form.confirm !== 'on') throw new InvalidInput('Tick the confirmation to close the account: a closed account is never opened again');
  return form.reason;
}
