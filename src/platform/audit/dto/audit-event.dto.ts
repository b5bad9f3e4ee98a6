import { ApiProperty } from '@nestjs/swagger';

export class AuditActorDto {
  @ApiProperty({ type: 'integer' })
  userid!: number;

  @ApiProperty({ description: 'The name as it was when the action happened.' })
  username!: string;
}

export class AuditEventDto {
  @ApiProperty({ type: 'integer' })
  auditid!: number;

  @ApiProperty({ type: 'integer', description: 'UNIX seconds' })
  date!: number;

  @ApiProperty({ type: AuditActorDto, nullable: true, description: 'null for the system' })
  actor!: AuditActorDto | null;

  @ApiProperty({ example: 'guide.delete' })
  action!: string;

  @ApiProperty({ example: 'guide' })
  entity_type!: string;

  @ApiProperty({ example: '17' })
  entity_id!: string;

  @ApiProperty({ nullable: true, description: 'The state before the change (JSON), where it applies.' })
  before!: unknown;

  @ApiProperty({ nullable: true, description: 'The state after the change (JSON), where it applies.' })
  after!: unknown;

  @ApiProperty({ type: String, nullable: true })
  reason!: string | null;

  @ApiProperty({ type: String, nullable: true })
  request_id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  ip!: string | null;

  @ApiProperty({ type: String, nullable: true })
  user_agent!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'hash of the previous row of the same entity' })
  prev_hash!: string | null;

  @ApiProperty({
    description:
      'HMAC-SHA256 under the audit key of (prev_hash + canonical row), hex; plain SHA-256 for rows written before ' +
      'the log was keyed',
  })
  hash!: string;
}
