import { IsIn, IsOptional } from 'class-validator';
import { MODES } from '@app/domain';
import { DASHBOARD_NAV } from '../dashboard-shell';

/**
 * The mode switch (kit/form.ts readForm): the mode to act in, never a tenant, so no value of it names
 * another owner's; and the section to go back to, one of the dashboard's own, so it sends no one away.
 */
export class ModeSwitchForm {
  @IsIn(MODES)
  mode!: string;

  @IsOptional()
  @IsIn(DASHBOARD_NAV.map((link) => link.href))
  section?: string;
}
