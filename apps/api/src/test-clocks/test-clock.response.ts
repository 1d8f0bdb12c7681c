import { ApiProperty } from '@nestjs/swagger';

export class TestClockResponse {
  @ApiProperty({ example: 'clock_5f1c0a9e2b7d4c8e9a0b1c2d' })
  testClockId!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Friday payouts' })
  name!: string | null;

  @ApiProperty({ format: 'date-time', description: 'The time the clock stands at; while it advances, the time it advances to' })
  frozenTime!: string;

  @ApiProperty({ enum: ['ready', 'advancing'], description: 'advancing: the work its objects waited for is being run; ready: all of it has run' })
  status!: 'ready' | 'advancing';

  @ApiProperty({ format: 'date-time', description: 'When it was created (the real time)' })
  createdAt!: string;
}

export class DeletedTestClockResponse {
  @ApiProperty({ example: 'clock_5f1c0a9e2b7d4c8e9a0b1c2d' })
  testClockId!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}
