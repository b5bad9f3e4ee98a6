import { ApiProperty } from '@nestjs/swagger';
import { QueryInt } from '../../../common/validation/query-decorators';

export class AuditCheckpointHeadDto {
  @ApiProperty({ example: 'guide' })
  entity_type!: string;

  @ApiProperty({ example: '17' })
  entity_id!: string;

  @ApiProperty({ type: 'integer', description: 'The newest row of the chain when the checkpoint was written.' })
  auditid!: number;

  @ApiProperty({ description: 'That row’s hash.' })
  hash!: string;
}

export class AuditCheckpointDto {
  @ApiProperty({ type: 'integer', description: '1, 2, 3 … without gaps.' })
  seq!: number;

  @ApiProperty({ type: 'integer', description: 'UNIX seconds' })
  date!: number;

  @ApiProperty({
    type: 'integer',
    description: 'The newest auditid written before the log was keyed (0: none); its rows carry plain SHA-256.',
  })
  legacy_through!: number;

  @ApiProperty({
    type: [AuditCheckpointHeadDto],
    description: 'The chains that gained rows since the previous checkpoint, at their newest row (at most 1000).',
  })
  heads!: AuditCheckpointHeadDto[];

  @ApiProperty({ type: String, nullable: true, description: 'signature of the previous checkpoint' })
  prev_signature!: string | null;

  @ApiProperty({
    description: 'HMAC-SHA256 under the audit key of everything above, hex. Also in the application log.',
  })
  signature!: string;
}

export class AuditCheckpointQueryDto {
  @QueryInt({ min: 1, clampTo: 20, default: 10, description: 'Page size; values above 20 are treated as 20.' })
  limit: number = 10;

  @QueryInt({ min: 0, default: 0, description: 'Number of checkpoints to skip (newest first).' })
  offset: number = 0;
}
