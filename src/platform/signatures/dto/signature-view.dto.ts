import { ApiProperty } from '@nestjs/swagger';

/** A signature as shown with what was signed (docs/signatures.md): always whole. */
export class SignatureViewDto {
  @ApiProperty({ type: 'integer' })
  userid!: number;

  @ApiProperty({ description: "The signer's name as printed at signing." })
  printed_name!: string;

  @ApiProperty({ type: 'integer', description: 'UNIX seconds' })
  signed_at!: number;

  @ApiProperty({ enum: ['approval', 'rejection', 'review', 'verification'] })
  meaning!: string;

  @ApiProperty()
  note!: string;
}
