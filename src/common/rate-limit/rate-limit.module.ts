import { Global, Module } from '@nestjs/common';
import { RateLimitsService } from './rate-limits.service';

/** The shared rate-limit counters and limits, for the HTTP layer and the auth use cases. */
@Global()
@Module({
  providers: [RateLimitsService],
  exports: [RateLimitsService],
})
export class RateLimitModule {}
