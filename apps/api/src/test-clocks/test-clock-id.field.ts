import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, ValidateIf } from 'class-validator';

/**
 * The `testClockId` a create names (docs/concepts/time.md): the object runs on that test clock for
 * life. Test mode only: a live key's request naming one is refused (TEST_CLOCK_LIVE_MODE).
 */
export function TestClockIdField(what: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ example: 'clock_5f1c0a9e2b7d4c8e9a0b1c2d', description: `Test mode only: the test clock ${what} runs on for life (POST /v1/trdp/test-clocks); without it, the real time` }),
    ValidateIf((_body: object, value: unknown) => value !== undefined),
    IsString(),
    Matches(/^clock_[0-9a-f]{24}$/, { message: 'testClockId must be a test clock id (clock_…)' }),
  );
}
